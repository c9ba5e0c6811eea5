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
import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
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

/** SHA-256 and size of a file, streamed; null when it cannot be read. */
export async function hashFile(path: string): Promise<{ sha256: string; size: number } | null> {
  return new Promise((resolve) => {
    const h = createHash('sha256');
    let size = 0;
    createReadStream(path)
      .on('data', (chunk) => {
        const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        size += b.length;
        h.update(b);
      })
      .on('error', () => resolve(null))
      .on('end', () => resolve({ sha256: h.digest('hex'), size }));
  });
}

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(p);
    else yield p;
  }
}

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
  const listed = new Set<string>();
  const limit = pLimit(16);
  const pending: Promise<void>[] = [];
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
      listed.add(e.key);
      pending.push(check(e.key, join(dir, e.key), e.sha256, e.size));
    }
  } catch (err) {
    throw new CatalogError('verify_failed', `snapshot ${id}: the manifest cannot be read (${(err as Error).message})`);
  }
  await Promise.all(pending);
  if (header === null) throw new CatalogError('verify_failed', `snapshot ${id}: the manifest is empty`);
  if (header.objects !== listed.size) problems.push(`manifest header says ${header.objects} objects, lists ${listed.size}`);
  try {
    for await (const p of walk(join(dir, 'v1'))) {
      const key = relative(dir, p).split(sep).join('/');
      if (!listed.has(key)) problems.push(`${key}: on disk but not in the manifest`);
    }
  } catch {
    // no v1 folder: every listed object was already reported missing
  }
  problems.sort();
  return { snapshotId: id, checked, problems, signature, header };
}
