// PLACEHOLDER: replaced by the real command.
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { CatalogError } from '../../snapshots/errors.js';

export function registerCompile(program: Command, _io: CliIO): void {
  program.command('compile').description('(not yet built)').action(() => {
    throw new CatalogError('internal', 'compile is not built yet');
  });
}
