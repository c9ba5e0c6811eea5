/** `catalog verify <root>`: re-hash every object of the current snapshot against its manifest. */
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { verifySnapshot } from '../../compiler/publish/verify.js';
import { CatalogError } from '../../snapshots/errors.js';
import { createTerminalProgress } from '../progress.js';

export function registerVerify(program: Command, io: CliIO): void {
  program
    .command('verify')
    .description('re-hash every object of the current snapshot under <root> against its manifest')
    .argument('<root>', 'snapshot root')
    .action(async (root: string) => {
      const progress = createTerminalProgress(io);
      progress.phase('verify', null);
      let seen = 0;
      const result = await verifySnapshot(root, (checked) => {
        progress.advance(checked - seen);
        seen = checked;
      });
      progress.finish();
      if (result.problems.length > 0) {
        for (const p of result.problems.slice(0, 50)) io.stderr.write(`${p}\n`);
        if (result.problems.length > 50) io.stderr.write(`... and ${result.problems.length - 50} more\n`);
        throw new CatalogError('verify_failed', `snapshot ${result.snapshotId}: ${result.problems.length} problem(s) in ${result.checked} objects`);
      }
      io.stdout.write(`snapshot ${result.snapshotId}: ${result.checked} objects verified, all match the manifest\n`);
    });
}
