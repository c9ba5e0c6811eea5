/**
 * `catalog mirror --from <baseUrl> --key <key|@file|env:VAR> --to <dir|s3://bucket/prefix> --public-key <file>`:
 * syncs a partner's mirror folder with the origin's current snapshot (mirror/sync.ts), verified
 * against the partner's copy of the signing key. One summary line on stdout; retries and pauses on
 * stderr. An `s3://` --to is synced through a local working root (--work), then published to the
 * store like a compile's snapshot (cli/store-publish.ts: packs the store lacks, files, signature,
 * manifest, current.json last) and pruned there.
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
import { openStoreMirrorTarget } from '../../mirror/store-target.js';
import { openMirrorTarget } from '../../mirror/target.js';
import { openBlobStore, parseStoreLocation, type BlobStore } from '../../snapshots/store/blob-store.js';
import { readStoreCurrent } from '../../snapshots/store/publish-pointer.js';
import { defaultWorkRoot } from '../../snapshots/store/publish-work-root.js';
import { publishAndPrune, WORK_ROOT_KEEP } from '../store-publish.js';
import { fetchSnapshotFromStore } from '../../snapshots/store/publish-fetch.js';
import type { StoreProgress } from '../../snapshots/store/publish-progress.js';
import { readCurrentId } from '../../snapshots/store/pointer.js';
import { basename, dirname, join } from 'node:path';

interface MirrorFlags {
  from: string;
  key: string;
  to: string;
  publicKey: string;
  concurrency: string;
  keep: string;
  layout: string;
  work?: string;
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
    .description('sync a mirror (a folder, servable by nginx with --layout files, or s3://bucket/prefix) with the origin\'s current snapshot, verifying the signature and every hash')
    .requiredOption('--from <baseUrl>', 'the partner API base URL, e.g. https://api.example.com')
    .requiredOption('--key <key|@file|env:VAR>', 'API key: the key, @file holding it, or env:VAR naming a variable')
    .requiredOption('--to <dir|s3://bucket/prefix>', 'the mirror: a folder (created if missing) or an object store prefix; must be empty or an earlier mirror')
    .requiredOption('--public-key <file>', 'the catalog\'s Ed25519 public key (PEM) the manifest must be signed with')
    .option('--concurrency <n>', 'parallel downloads', '8')
    .option('--keep <n>', 'snapshots kept in the mirror, current included', '2')
    .option('--layout <packs|files>', 'packed origins: packs (a packed snapshot root, for catalog serve) or files (also the per-URL files and ETag map nginx serves)', 'packs')
    .option('--work <folder>', 'with an s3:// --to: the local working root synced before publishing to the store (default: <cache>/catalog/work/mirror-<bucket>-<hash>)')
    .action(async (flags: MirrorFlags) => {
      const from = checkBaseUrl(flags.from);
      const key = resolveKey(flags.key, io.env);
      const publicKey = loadPublicKey(flags.publicKey);
      const layout = MIRROR_LAYOUTS.find((l) => l === flags.layout);
      if (layout === undefined) throw new CatalogError('usage', `--layout must be packs or files (got "${flags.layout}")`, { option: 'layout' });
      const where = parseStoreLocation(flags.to, '--to');
      if (where.kind === 'folder' && flags.work !== undefined) throw new CatalogError('usage', '--work is for an s3:// --to; a folder --to is synced in place', { option: 'work' });
      if (where.kind === 's3' && layout !== 'packs') {
        throw new CatalogError('usage', '--layout files needs a folder --to (the per-URL files are for a web server\'s disk); an s3:// mirror holds packs', { option: 'layout' });
      }
      const concurrency = parseIntOption('--concurrency', flags.concurrency, 1, 64);
      const keep = parseIntOption('--keep', flags.keep, 1);
      const store = where.kind === 's3' ? await openBlobStore(flags.to, '--to') : null;
      const work = where.kind === 's3' ? (flags.work ?? mirrorWorkRoot(where, io.env)) : flags.to;
      const progress = createTerminalProgress(io);
      try {
        if (store !== null) await prepareStoreMirror(store, work, from, progress);
        const s = await mirrorSnapshot({ from, key, to: work, publicKey, progress, layout, concurrency, keep: store === null ? keep : WORK_ROOT_KEEP, packedOnly: store !== null });
        progress.finish();
        if (s.upToDate) {
          // A publish killed after the sync left the store behind its working root: finish it.
          const done = store === null || (await readStoreCurrent(store)) === s.snapshotId;
          io.stdout.write(`mirror ${done && store ? store.location : work} is up to date at ${s.snapshotId} (signature checked)\n`);
          if (done) return;
        } else {
          io.stdout.write(`${summaryLine(s)} in ${formatDuration(s.durationMs)} -> ${work}/current${s.previousId ? ` (was ${s.previousId})` : ''}\n`);
        }
        if (store !== null) await publishAndPrune({ from: work, snapshotId: s.snapshotId, store, keep: { keep }, progress, io });
      } finally {
        progress.finish();
        await store?.close();
      }
    });
}

/** The working root of an s3:// mirror: beside a compile's (publish-work-root.ts), never the same folder. */
function mirrorWorkRoot(where: { bucket: string; prefix: string }, env: NodeJS.ProcessEnv): string {
  const compileRoot = defaultWorkRoot(where, env);
  return join(dirname(compileRoot), `mirror-${basename(compileRoot)}`);
}

/**
 * The store must be a mirror (or empty), the working root too. A working root with no snapshot (a
 * new machine, a lost cache) first gets the store's current one from the store, so the sync fetches
 * from the origin only the packs the store does not hold (and the publish uploads only those).
 */
async function prepareStoreMirror(store: BlobStore, work: string, from: string, progress: StoreProgress): Promise<void> {
  await openStoreMirrorTarget(store, from);
  openMirrorTarget(work, from);
  const published = await readStoreCurrent(store);
  if (published === null || (await readCurrentId(work)) !== null) return;
  progress.note(`${work} holds no snapshot: fetching ${published}, the current snapshot of ${store.location}, from the store first`);
  await fetchSnapshotFromStore({ store, snapshotId: published, to: work, progress });
}
