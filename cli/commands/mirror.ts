/**
 * `catalog mirror --from <baseUrl> --key <key|@file|env:VAR> --to <dir> --public-key <file>`: syncs a
 * partner's mirror folder with the origin's current snapshot (mirror/sync.ts), verified against the
 * partner's copy of the signing key. One summary line on stdout; retries and pauses on stderr.
 */
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { parseIntOption } from '../options.js';
import { createTerminalProgress, formatDuration } from '../progress.js';
import { CatalogError } from '../../snapshots/errors.js';
import { loadPublicKey } from '../../snapshots/signature.js';
import { resolveKey } from '../../mirror/key-spec.js';
import { mirrorSnapshot, type MirrorSummary } from '../../mirror/sync.js';
import { MIRROR_LAYOUTS } from '../../mirror/sync-types.js';

interface MirrorFlags {
  from: string;
  key: string;
  to: string;
  publicKey: string;
  concurrency: string;
  keep: string;
  layout: string;
}

function checkBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CatalogError('usage', `--from must be an http(s) base URL such as https://api.example.com (got "${raw}")`, { option: 'from' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CatalogError('usage', '--from must be an http(s) URL', { option: 'from' });
  if (url.username || url.password) throw new CatalogError('usage', '--from must not carry credentials; give the key with --key', { option: 'from' });
  return url.toString().replace(/\/+$/, '');
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

/** What a sync moved: by object from a per-URL origin, by pack from a packed one. */
function summaryLine(s: MirrorSummary): string {
  const bulk = `bulk files ${s.bulkFetched} fetched, ${s.bulkLinked} linked`;
  const p = s.packed;
  if (p === null) {
    return `mirrored ${s.snapshotId}: ${s.objects} objects (${s.fetched} fetched, ${kib(s.fetchedBytes)}; ${s.linked} unchanged, linked; ${s.resumed} resumed), ` +
      `${bulk}; signature and every hash verified`;
  }
  const files = s.layout === 'files' ? `; per-URL files ${p.extracted} written from packs, ${p.extractedLinked} linked` : '';
  return `mirrored ${s.snapshotId} (packed): ${s.objects} objects in ${p.packs} packs (${p.packsFetched} fetched, ${kib(p.packsFetchedBytes)}; ` +
    `${p.packsHeld} already held; ${p.packsResumed} resumed), index files ${p.filesFetched} fetched, ${p.filesLinked} linked, ${bulk}${files}; ` +
    'signature, files and packs verified';
}

export function registerMirror(program: Command, io: CliIO): void {
  program
    .command('mirror')
    .description('sync a mirror folder (servable by nginx) with the origin\'s current snapshot, verifying the signature and every hash')
    .requiredOption('--from <baseUrl>', 'the partner API base URL, e.g. https://api.example.com')
    .requiredOption('--key <key|@file|env:VAR>', 'API key: the key, @file holding it, or env:VAR naming a variable')
    .requiredOption('--to <dir>', 'mirror folder (created if missing; must be empty or an earlier mirror)')
    .requiredOption('--public-key <file>', 'the catalog\'s Ed25519 public key (PEM) the manifest must be signed with')
    .option('--concurrency <n>', 'parallel downloads', '8')
    .option('--keep <n>', 'snapshots kept in the mirror, current included', '2')
    .option('--layout <packs|files>', 'packed origins: packs (a packed snapshot root, for catalog serve) or files (also the per-URL files and ETag map nginx serves)', 'packs')
    .action(async (flags: MirrorFlags) => {
      const from = checkBaseUrl(flags.from);
      const key = resolveKey(flags.key, io.env);
      const publicKey = loadPublicKey(flags.publicKey);
      const layout = MIRROR_LAYOUTS.find((l) => l === flags.layout);
      if (layout === undefined) throw new CatalogError('usage', `--layout must be packs or files (got "${flags.layout}")`, { option: 'layout' });
      const progress = createTerminalProgress(io);
      try {
        const s = await mirrorSnapshot({
          from, key, to: flags.to, publicKey, progress, layout,
          concurrency: parseIntOption('--concurrency', flags.concurrency, 1, 64),
          keep: parseIntOption('--keep', flags.keep, 1),
        });
        progress.finish();
        if (s.upToDate) {
          io.stdout.write(`mirror ${flags.to} is up to date at ${s.snapshotId} (signature checked)\n`);
          return;
        }
        io.stdout.write(`${summaryLine(s)} in ${formatDuration(s.durationMs)} -> ${flags.to}/current${s.previousId ? ` (was ${s.previousId})` : ''}\n`);
      } finally {
        progress.finish();
      }
    });
}
