// PLACEHOLDER: replaced by the real command.
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { CatalogError } from '../../snapshots/errors.js';

export function registerKeys(program: Command, _io: CliIO): void {
  program.command('keys').description('(not yet built)').action(() => {
    throw new CatalogError('internal', 'keys is not built yet');
  });
}
