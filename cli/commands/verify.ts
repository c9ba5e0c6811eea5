/** `catalog verify <root> [--public-key <file>]`: check the current snapshot under <root> against its manifest, offline. */
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { verifySnapshot } from '../../compiler/publish/verify.js';
import { CatalogError } from '../../snapshots/errors.js';
import { loadPublicKey } from '../../snapshots/signature.js';
import { createTerminalProgress } from '../progress.js';

export function registerVerify(program: Command, io: CliIO): void {
  program
    .command('verify')
    .description('re-hash every object and bulk file of the current snapshot under <root> (a snapshot root or a mirror) against its manifest')
    .argument('<root>', 'snapshot root or mirror folder')
    .option('--public-key <file>', 'Ed25519 public key (PEM): check the manifest signature first')
    .action(async (root: string, opts: { publicKey?: string }) => {
      const publicKey = opts.publicKey === undefined ? undefined : loadPublicKey(opts.publicKey);
      const progress = createTerminalProgress(io);
      progress.phase('verify', null);
      let seen = 0;
      const result = await verifySnapshot(root, (checked) => {
        progress.advance(checked - seen);
        seen = checked;
      }, publicKey).finally(() => progress.finish());
      if (result.problems.length > 0) {
        for (const p of result.problems.slice(0, 50)) io.stderr.write(`${p}\n`);
        if (result.problems.length > 50) io.stderr.write(`... and ${result.problems.length - 50} more\n`);
        throw new CatalogError('verify_failed', `snapshot ${result.snapshotId}: ${result.problems.length} problem(s) in ${result.checked} objects and bulk files`);
      }
      const signed = result.signature?.ok ? `, manifest signature valid (key ${result.signature.keyFingerprint})` : '';
      const bulk = result.header.bulk?.length ?? 0;
      io.stdout.write(`snapshot ${result.snapshotId}: ${result.checked - bulk} objects verified and ${bulk} bulk files, all match the manifest${signed}\n`);
    });
}
