// PLACEHOLDER: replaced by the real command.
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { CatalogError } from '../../snapshots/errors.js';

export function registerServe(program: Command, _io: CliIO): void {
  program.command('serve').description('(not yet built)').action(() => {
    throw new CatalogError('internal', 'serve is not built yet');
  });
}
