/**
 * `catalog compile --source <dir|url> --out <root|s3://bucket/prefix> [--work <folder>] [--keep N]
 * [--keep-daily D] [--max-rejects N] [--workers N] [--sign-key <file>]`. With an `s3://` --out the compile runs in a
 * local working root (--work, default under the OS cache folder: publish-work-root.ts) that is first
 * made to hold the store's current snapshot, then the new snapshot is published to the store and the
 * store pruned to --keep (cli/store-publish.ts).
 */
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { compileSnapshot } from '../../compiler/compile/index.js';
import { createCompileLog } from '../compile-log.js';
import { createCliLogger, parseLogLevel } from '../log.js';
import { formatDuration } from '../progress.js';
import { withPhaseTimings } from '../../compiler/compile/phase-timings.js';
import { parseIntOption } from '../options.js';
import { loadPrivateKey } from '../../snapshots/signature.js';
import { CatalogError } from '../../snapshots/errors.js';
import { exitOnUncaught } from '../uncaught.js';
import { openBlobStore, parseStoreLocation } from '../../snapshots/store/blob-store.js';
import { defaultWorkRoot } from '../../snapshots/store/publish-work-root.js';
import { prepareWorkRoot, publishAndPrune, WORK_ROOT_KEEP } from '../store-publish.js';

export function registerCompile(program: Command, io: CliIO): void {
  program
    .command('compile')
    .description('compile a catalog into a new snapshot and publish it atomically as <root>/current')
    .requiredOption('--source <dir|url>', 'catalog folder or http(s) base URL of the export')
    .requiredOption('--out <root>', 'snapshot root (holds snapshot folders and the current pointer): a folder, or s3://bucket/prefix (settings from AWS_*)')
    .option('--work <folder>', 'with an s3:// --out: the local working root the compile writes into before publishing (default: <cache>/catalog/work/<bucket>-<hash>)')
    .option('--keep <n>', 'complete snapshots to keep, current included (in the store, with an s3:// --out)', '3')
    .option('--keep-daily <d>', 'also keep the newest snapshot of each of the last D UTC days (counted from the newest snapshot\'s day)', '0')
    .option('--max-rejects <n>', 'bad source records that may be skipped and listed instead of failing', '0')
    .option('--workers <n>', 'render threads besides the main thread, which reads and writes (default: cores - 1, at least 1)')
    .option('--sign-key <file>', 'Ed25519 private key (PEM, from `catalog signing init`) that signs the manifest')
    .action(async (opts: { source: string; out: string; work?: string; keep: string; keepDaily: string; maxRejects: string; workers?: string; signKey?: string }) => {
      const keep = { keep: parseIntOption('--keep', opts.keep, 1), keepDaily: parseIntOption('--keep-daily', opts.keepDaily, 0) };
      const where = parseStoreLocation(opts.out, '--out');
      if (where.kind === 'folder' && opts.work !== undefined) throw new CatalogError('usage', '--work is for an s3:// --out; a folder --out is the working root itself', { option: 'work' });
      const work = where.kind === 's3' ? (opts.work ?? defaultWorkRoot(where, io.env)) : opts.out;
      // Loaded before any work, so a bad key file fails in a second, not after the compile.
      const signKey = opts.signKey === undefined ? null : loadPrivateKey(opts.signKey);
      const log = createCompileLog(io, createCliLogger(io, parseLogLevel(io.env)));
      // CATALOG_COMPILE_TIMINGS=1 prints wall and CPU time per phase to stderr (docs/benchmarks.md).
      const timed = io.env.CATALOG_COMPILE_TIMINGS === '1' ? withPhaseTimings(log) : null;
      const progress = timed ? { ...log, ...timed, compiled: log.compiled, finished: log.finished, finish: log.finish } : log;
      // An exception nothing can catch (issue 21: one thrown inside undici) still ends the compile
      // with one `catalog:` line and its documented exit code, never a stack trace.
      const store = where.kind === 's3' ? await openBlobStore(opts.out, '--out') : null;
      const release = exitOnUncaught(process, io, () => progress.finish());
      try {
        if (store !== null) await prepareWorkRoot(store, work, progress);
        const s = await compileSnapshot({
          source: opts.source,
          out: work,
          ...(store === null ? keep : { keep: WORK_ROOT_KEEP }),
          maxRejects: parseIntOption('--max-rejects', opts.maxRejects, 0),
          workers: opts.workers === undefined ? undefined : parseIntOption('--workers', opts.workers, 0),
          progress,
          signKey,
        });
        progress.compiled({
          snapshotId: s.snapshotId, objects: s.objects, ...s.counts, cards: s.cards, figures: s.figures,
          rejects: s.rejects.length, durationMs: s.durationMs,
        });
        progress.finish();
        timed?.report((line) => io.stderr.write(line));
        const secs = s.durationMs / 1000;
        io.stdout.write(
          `compiled ${s.snapshotId}: ${s.objects} objects (${s.counts.new} new, ${s.counts.changed} changed, ` +
            `${s.counts.unchanged} unchanged, ${s.counts.removed} removed) from ${s.cards} cards and ${s.figures} figures` +
            `${s.rejects.length ? `, ${s.rejects.length} records skipped` : ''} in ${formatDuration(s.durationMs)} ` +
            `(${Math.round(s.objects / Math.max(secs, 0.001))} objects/s)${signKey ? ', manifest signed' : ''} -> ${work}/current\n`,
        );
        if (store !== null) await publishAndPrune({ from: work, snapshotId: s.snapshotId, store, keep, progress, io, finished: progress.finished });
      } finally {
        release();
        progress.finish();
        await store?.close();
      }
    });
}
