// PLACEHOLDER: replaced by the real command.
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { CatalogError } from '../../snapshots/errors.js';

export function registerDemo(program: Command, _io: CliIO): void {
  program.command('demo').description('(not yet built)').action(() => {
    throw new CatalogError('internal', 'demo is not built yet');
  });
}
