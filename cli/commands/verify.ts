/** `catalog verify <root> [--public-key <file>]`: check the current snapshot under <root> (a folder or s3://bucket/prefix) against its manifest. */
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { verifySnapshot, type VerifyResult } from '../../compiler/publish/verify.js';
import { CatalogError } from '../../snapshots/errors.js';
import { loadPublicKey } from '../../snapshots/signature.js';
import { createTerminalProgress } from '../progress.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function summary(r: VerifyResult): string {
  const signed = r.signature?.ok ? `, manifest signature valid (key ${r.signature.keyFingerprint})` : '';
  if (r.layout === 'files') return `snapshot ${r.snapshotId}: ${r.objects} objects verified and ${r.files} bulk files, all match the manifest${signed}`;
  return `snapshot ${r.snapshotId}: ${r.objects} objects verified in ${plural(r.packs, 'pack')} and ${plural(r.files, 'file')}, all match the index and the manifest${signed}`;
}

export function registerVerify(program: Command, io: CliIO): void {
  program
    .command('verify')
    .description(
      're-hash the current snapshot under <root> against its manifest: every pack and file it lists, then every object ' +
        'against the index (packed snapshots), or every per-URL object and bulk file (older snapshots and mirrors); ' +
        'an s3:// root takes its settings from AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_S3_FORCE_PATH_STYLE',
    )
    .argument('<root>', 'snapshot root or mirror folder, or s3://bucket/prefix')
    .option('--public-key <file>', 'Ed25519 public key (PEM): check the manifest signature first')
    .action(async (root: string, opts: { publicKey?: string }) => {
      const publicKey = opts.publicKey === undefined ? undefined : loadPublicKey(opts.publicKey);
      const progress = createTerminalProgress(io);
      const result = await verifySnapshot(root, { publicKey, progress, env: io.env }).finally(() => progress.finish());
      if (result.problems.length > 0) {
        for (const p of result.problems.slice(0, 50)) io.stderr.write(`${p}\n`);
        if (result.problems.length > 50) io.stderr.write(`... and ${result.problems.length - 50} more\n`);
        const what = result.layout === 'files' ? 'objects and bulk files' : `objects, ${plural(result.packs, 'pack')} and ${plural(result.files, 'file')}`;
        throw new CatalogError('verify_failed', `snapshot ${result.snapshotId}: ${result.problems.length} problem(s) in ${result.objects + (result.layout === 'files' ? result.files : 0)} ${what}`);
      }
      io.stdout.write(`${summary(result)}\n`);
    });
}
