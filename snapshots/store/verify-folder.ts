/**
 * Checks one snapshot folder against its manifest, offline: every object and bulk file is re-hashed,
 * objects on disk that the manifest does not list are reported (a mirror would never fetch them),
 * and with a public key the manifest's signature is checked first. Shared by `catalog verify` (the
 * origin's root) and `catalog mirror` (a partner's mirror has the same layout).
 *
 * @example
 *   const r = await verifySnapshotFolder('/data/snapshots/20261122T020000Z-1a2b3c4d', { publicKey });
 *   r.problems  // [] when everything matches
 */
import { createReadStream, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createHash, type KeyObject } from 'node:crypto';
import { basename, join, relative, sep } from 'node:path';
import pLimit from 'p-limit';
import { MANIFEST_FILE, MANIFEST_SIGNATURE_FILE } from '../keys.js';
import { isManifestHeader, readManifest, type ManifestEntry, type ManifestHeader } from '../manifest.js';
import { checkManifestSignature, type SignatureCheck } from '../signature.js';
import { CatalogError } from '../errors.js';

export interface FolderVerifyResult {
  snapshotId: string;
  /** Objects and bulk files re-hashed. */
  checked: number;
  problems: string[];
  /** The signature check, when a public key was given. */
  signature: SignatureCheck | null;
  header: ManifestHeader;
}

/**
 * Read size of hashFile: a stream's default 64 KB made hashing a 1 GB object index take 2.2 s, 1 MB
 * pieces 1.0 s (the snapshot's files are hashed at every publish and verify; docs/benchmarks.md).
 */
const HASH_CHUNK = 1 << 20;

/** SHA-256 and size of a file, streamed; null when it cannot be read. */
export async function hashFile(path: string): Promise<{ sha256: string; size: number } | null> {
  return new Promise((resolve) => {
    const h = createHash('sha256');
    let size = 0;
    createReadStream(path, { highWaterMark: HASH_CHUNK })
      .on('data', (chunk) => {
        const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        size += b.length;
        h.update(b);
      })
      .on('error', () => resolve(null))
      .on('end', () => resolve({ sha256: h.digest('hex'), size }));
  });
}

/**
 * The files under `dir`, in the order of their full paths compared as strings: the same order as the
 * manifest's keys (sorted by the compiler). A folder's entries are sorted with a `/` after each
 * folder name, which is exactly where its files fall among its siblings in full-path order, so the
 * whole walk is one sorted sequence and can be merged with the manifest without holding either.
 */
function* sortedWalk(dir: string): Generator<string> {
  // readdirSync: one call per folder instead of a thread-pool round trip each; at 1,000,000 cards
  // (1 million folders) the whole walk took 37 s this way and about five times longer with
  // fs/promises (docs/benchmarks.md).
  const entries = readdirSync(dir, { withFileTypes: true })
    .map((entry) => ({ entry, order: entry.isDirectory() ? `${entry.name}/` : entry.name }))
    .sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
  for (const { entry } of entries) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) yield* sortedWalk(p);
    else yield p;
  }
}

/** The object keys of a manifest, in file order. */
async function* manifestKeys(path: string): AsyncGenerator<string> {
  for await (const item of readManifest(path)) if (!isManifestHeader(item)) yield (item as ManifestEntry).key;
}

/**
 * Files on disk under `v1/` that the manifest does not list. With a sorted manifest (every manifest
 * the compiler writes) this is a merge of two sorted streams: memory stays flat at any catalog size.
 * A manifest out of order (not one of ours) falls back to a set of its keys.
 */
async function unlistedFiles(dir: string, sorted: boolean): Promise<string[]> {
  const keyOf = (p: string) => relative(dir, p).split(sep).join('/');
  const extra: string[] = [];
  try {
    if (!sorted) {
      const listed = new Set<string>();
      for await (const key of manifestKeys(join(dir, MANIFEST_FILE))) listed.add(key);
      for (const p of sortedWalk(join(dir, 'v1'))) if (!listed.has(keyOf(p))) extra.push(keyOf(p));
      return extra;
    }
    const keys = manifestKeys(join(dir, MANIFEST_FILE));
    let listed = await keys.next();
    for (const p of sortedWalk(join(dir, 'v1'))) {
      const key = keyOf(p);
      // Listed keys before this file are missing on disk: already reported by the hash check.
      while (!listed.done && listed.value < key) listed = await keys.next();
      if (!listed.done && listed.value === key) listed = await keys.next();
      else extra.push(key);
    }
  } catch (err) {
    // No v1 folder: every listed object was already reported missing.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  return extra;
}

/** Objects hashed at once; the manifest is read only as fast as they finish (flat memory). */
const HASH_CONCURRENCY = 16;
const HASH_WINDOW = 1024;

async function readSignature(dir: string): Promise<string | null> {
  try {
    return await readFile(join(dir, MANIFEST_SIGNATURE_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * The signature check of a folder's manifest. A failed check is a `verify_failed` error that says
 * why (unsigned, another key, changed after signing, bad signature): nothing else is worth hashing then.
 */
export async function checkFolderSignature(dir: string, publicKey: KeyObject): Promise<SignatureCheck & { ok: true }> {
  const manifest = await hashFile(join(dir, MANIFEST_FILE));
  if (manifest === null) throw new CatalogError('verify_failed', `${dir}: no manifest to check`);
  const check = checkManifestSignature(publicKey, await readSignature(dir), { snapshotId: basename(dir), ...manifest });
  if (!check.ok) throw new CatalogError('verify_failed', check.message, { reason: check.reason });
  return check;
}

export async function verifySnapshotFolder(
  dir: string,
  options: { publicKey?: KeyObject; onProgress?: (checked: number, total: number) => void } = {},
): Promise<FolderVerifyResult> {
  const id = basename(dir);
  const signature = options.publicKey ? await checkFolderSignature(dir, options.publicKey) : null;
  const problems: string[] = [];
  let header: ManifestHeader | null = null;
  let listedCount = 0;
  let previousKey: string | null = null;
  let sorted = true;
  const limit = pLimit(HASH_CONCURRENCY);
  let pending: Promise<void>[] = [];
  let checked = 0;
  const check = (what: string, path: string, sha256: string, size: number) =>
    limit(async () => {
      const got = await hashFile(path);
      if (got === null) problems.push(`${what}: missing`);
      else if (got.size !== size) problems.push(`${what}: ${got.size} bytes, the manifest says ${size} (truncated or changed)`);
      else if (got.sha256 !== sha256) problems.push(`${what}: sha256 differs from the manifest`);
      checked++;
      if (options.onProgress && checked % 1000 === 0) options.onProgress(checked, header?.objects ?? 0);
    });
  try {
    for await (const item of readManifest(join(dir, MANIFEST_FILE))) {
      if (isManifestHeader(item)) {
        header = item;
        if (header.snapshotId !== id) problems.push(`the manifest names snapshot ${header.snapshotId}, the folder is ${id}`);
        for (const b of header.bulk ?? []) pending.push(check(b.file, join(dir, b.file), b.sha256, b.size));
        continue;
      }
      const e = item as ManifestEntry;
      listedCount++;
      if (e.key === previousKey) problems.push(`${e.key}: listed twice in the manifest`);
      if (previousKey !== null && e.key <= previousKey) sorted = false;
      previousKey = e.key;
      pending.push(check(e.key, join(dir, e.key), e.sha256, e.size));
      // Backpressure: without it a 5-million-object manifest queued every check at once and ran
      // out of heap (seen at 1,000,000 cards, docs/benchmarks.md).
      if (pending.length >= HASH_WINDOW) {
        await Promise.all(pending);
        pending = [];
      }
    }
  } catch (err) {
    throw new CatalogError('verify_failed', `snapshot ${id}: the manifest cannot be read (${(err as Error).message})`);
  }
  await Promise.all(pending);
  if (header === null) throw new CatalogError('verify_failed', `snapshot ${id}: the manifest is empty`);
  if (header.objects !== listedCount) problems.push(`manifest header says ${header.objects} objects, lists ${listedCount}`);
  for (const key of await unlistedFiles(dir, sorted)) problems.push(`${key}: on disk but not in the manifest`);
  problems.sort();
  return { snapshotId: id, checked, problems, signature, header };
}
