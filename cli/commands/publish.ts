/**
 * `catalog publish --from <root> --to s3://bucket/prefix [--snapshot <id>] [--keep N [--keep-daily D]]`: publishes a
 * packed snapshot compiled into a local root (its current one by default) to an object store, in the
 * order that keeps it atomic (snapshots/store/publish-to-store.ts), then prunes the store when --keep
 * is given. What `catalog compile --out s3://…` does after its compile, on its own.
 */
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { parseIntOption } from '../options.js';
import { createTerminalProgress } from '../progress.js';
import { CatalogError } from '../../snapshots/errors.js';
import { openBlobStore, parseStoreLocation } from '../../snapshots/store/blob-store.js';
import { isSnapshotId, readCurrentId } from '../../snapshots/store/pointer.js';
import { publishAndPrune } from '../store-publish.js';

interface PublishFlags {
  from: string;
  to: string;
  snapshot?: string;
  keep?: string;
  keepDaily?: string;
}

export function registerPublish(program: Command, io: CliIO): void {
  program
    .command('publish')
    .description('publish a packed snapshot of a local root to an object store (packs, files, signature, manifest, then current.json)')
    .requiredOption('--from <root>', 'local snapshot root the snapshot was compiled into')
    .requiredOption('--to <s3://bucket/prefix>', 'the object store (settings from AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_S3_FORCE_PATH_STYLE)')
    .option('--snapshot <id>', 'the snapshot to publish (default: the current one of --from)')
    .option('--keep <n>', 'then prune the store to this many complete snapshots, current included (default: no prune)')
    .option('--keep-daily <d>', 'with --keep: also keep the newest snapshot of each of the last D UTC days')
    .action(async (flags: PublishFlags) => {
      if (parseStoreLocation(flags.to, '--to').kind !== 's3') {
        throw new CatalogError('usage', `--to must be s3://bucket/prefix (got ${flags.to}); to publish into a folder, compile with --out <folder>`, { option: 'to' });
      }
      if (flags.keepDaily !== undefined && flags.keep === undefined) throw new CatalogError('usage', '--keep-daily needs --keep (without --keep the store is not pruned)', { option: 'keep-daily' });
      const keep = flags.keep === undefined ? null : { keep: parseIntOption('--keep', flags.keep, 1), keepDaily: parseIntOption('--keep-daily', flags.keepDaily ?? '0', 0) };
      if (flags.snapshot !== undefined && !isSnapshotId(flags.snapshot)) {
        throw new CatalogError('usage', `--snapshot: ${JSON.stringify(flags.snapshot)} is not a snapshot id (as in 20261122T020000Z-1a2b3c4d)`, { option: 'snapshot' });
      }
      const snapshotId = flags.snapshot ?? (await readCurrentId(flags.from));
      if (snapshotId === null) throw new CatalogError('not_found', `${flags.from} has no current snapshot; compile one first, or name it with --snapshot`);
      const store = await openBlobStore(flags.to, '--to');
      const progress = createTerminalProgress(io);
      try {
        await publishAndPrune({ from: flags.from, snapshotId, store, keep, progress, io });
      } finally {
        progress.finish();
        await store.close();
      }
    });
}
