/** `catalog compile --source <dir|url> --out <root> [--keep N] [--max-rejects N] [--workers N] [--sign-key <file>]` */
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { compileSnapshot } from '../../compiler/compile/index.js';
import { createCompileLog } from '../compile-log.js';
import { createCliLogger, parseLogLevel } from '../log.js';
import { formatDuration } from '../progress.js';
import { withPhaseTimings } from '../../compiler/compile/phase-timings.js';
import { parseIntOption } from '../options.js';
import { loadPrivateKey } from '../../snapshots/signature.js';
import { exitOnUncaught } from '../uncaught.js';

export function registerCompile(program: Command, io: CliIO): void {
  program
    .command('compile')
    .description('compile a catalog into a new snapshot and publish it atomically as <root>/current')
    .requiredOption('--source <dir|url>', 'catalog folder or http(s) base URL of the export')
    .requiredOption('--out <root>', 'snapshot root (holds snapshot folders and the current pointer)')
    .option('--keep <n>', 'complete snapshots to keep, current included', '3')
    .option('--max-rejects <n>', 'bad source records that may be skipped and listed instead of failing', '0')
    .option('--workers <n>', 'render threads besides the main thread, which reads and writes (default: cores - 1, at least 1)')
    .option('--sign-key <file>', 'Ed25519 private key (PEM, from `catalog signing init`) that signs the manifest')
    .action(async (opts: { source: string; out: string; keep: string; maxRejects: string; workers?: string; signKey?: string }) => {
      // Loaded before any work, so a bad key file fails in a second, not after the compile.
      const signKey = opts.signKey === undefined ? null : loadPrivateKey(opts.signKey);
      const log = createCompileLog(io, createCliLogger(io, parseLogLevel(io.env)));
      // CATALOG_COMPILE_TIMINGS=1 prints wall and CPU time per phase to stderr (docs/benchmarks.md).
      const timed = io.env.CATALOG_COMPILE_TIMINGS === '1' ? withPhaseTimings(log) : null;
      const progress = timed ? { ...log, ...timed, compiled: log.compiled, finish: log.finish } : log;
      // An exception nothing can catch (issue 21: one thrown inside undici) still ends the compile
      // with one `catalog:` line and its documented exit code, never a stack trace.
      const release = exitOnUncaught(process, io, () => progress.finish());
      try {
        const s = await compileSnapshot({
          source: opts.source,
          out: opts.out,
          keep: parseIntOption('--keep', opts.keep, 1),
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
            `(${Math.round(s.objects / Math.max(secs, 0.001))} objects/s)${signKey ? ', manifest signed' : ''} -> ${opts.out}/current\n`,
        );
      } finally {
        release();
        progress.finish();
      }
    });
}
