// PLACEHOLDER: replaced by the real command.
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { CatalogError } from '../../snapshots/errors.js';

export function registerAudit(program: Command, _io: CliIO): void {
  program.command('audit').description('(not yet built)').action(() => {
    throw new CatalogError('internal', 'audit is not built yet');
  });
}
