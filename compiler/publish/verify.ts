/**
 * `catalog verify`: re-hash every object of the current snapshot against its manifest. Also reports
 * objects on disk that the manifest does not list, since a mirror would never fetch them.
 */
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join, relative, sep } from 'node:path';
import pLimit from 'p-limit';
import { MANIFEST_FILE } from '../../snapshots/keys.js';
import { isManifestHeader, readManifest, type ManifestEntry, type ManifestHeader } from '../../snapshots/manifest.js';
import { readCurrentId } from '../../snapshots/store/pointer.js';
import { CatalogError } from '../../snapshots/errors.js';

export interface VerifyResult {
  snapshotId: string;
  checked: number;
  problems: string[];
}

async function hashFile(path: string): Promise<{ sha256: string; size: number } | null> {
  return new Promise((resolve) => {
    const h = createHash('sha256');
    let size = 0;
    createReadStream(path)
      .on('data', (chunk) => {
        if (typeof chunk === 'string') chunk = Buffer.from(chunk);
        size += chunk.length;
        h.update(chunk);
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

export async function verifySnapshot(root: string, onProgress?: (checked: number, total: number) => void): Promise<VerifyResult> {
  const id = await readCurrentId(root);
  if (id === null) throw new CatalogError('not_found', `no snapshot is published under ${root} (no current pointer); run catalog compile first`);
  const dir = join(root, id);
  const problems: string[] = [];
  let header: ManifestHeader | null = null;
  const listed = new Set<string>();
  const limit = pLimit(16);
  const pending: Promise<void>[] = [];
  let checked = 0;
  try {
    for await (const item of readManifest(join(dir, MANIFEST_FILE))) {
      if (isManifestHeader(item)) {
        header = item;
        continue;
      }
      const e = item as ManifestEntry;
      listed.add(e.key);
      pending.push(
        limit(async () => {
          const got = await hashFile(join(dir, e.key));
          if (got === null) problems.push(`${e.key}: missing`);
          else if (got.sha256 !== e.sha256 || got.size !== e.size) problems.push(`${e.key}: sha256 or size differs from the manifest`);
          checked++;
          if (onProgress && checked % 1000 === 0) onProgress(checked, header?.objects ?? 0);
        }),
      );
    }
  } catch (err) {
    throw new CatalogError('verify_failed', `snapshot ${id}: the manifest cannot be read (${(err as Error).message})`);
  }
  await Promise.all(pending);
  if (header && header.objects !== listed.size) problems.push(`manifest header says ${header.objects} objects, lists ${listed.size}`);
  const v1 = join(dir, 'v1');
  try {
    for await (const p of walk(v1)) {
      const key = relative(dir, p).split(sep).join('/');
      if (!listed.has(key)) problems.push(`${key}: on disk but not in the manifest`);
    }
  } catch {
    // no v1 folder: every listed object was already reported missing
  }
  problems.sort();
  return { snapshotId: id, checked, problems };
}
