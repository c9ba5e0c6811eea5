// PLACEHOLDER: replaced by the real command.
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { CatalogError } from '../../snapshots/errors.js';

export function registerVerify(program: Command, _io: CliIO): void {
  program.command('verify').description('(not yet built)').action(() => {
    throw new CatalogError('internal', 'verify is not built yet');
  });
}
