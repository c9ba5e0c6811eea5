// PLACEHOLDER: replaced by the real command.
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { CatalogError } from '../../snapshots/errors.js';

export function registerGenerate(program: Command, _io: CliIO): void {
  program.command('generate').description('(not yet built)').action(() => {
    throw new CatalogError('internal', 'generate is not built yet');
  });
}
