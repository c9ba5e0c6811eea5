/**
 * `catalog verify`: checks the current snapshot under a root against its manifest, offline (and,
 * given a public key, the manifest's signature first). The root is a folder or `s3://bucket/prefix`.
 * A packed snapshot (manifest version 2) is checked through the BlobStore on either store
 * (snapshots/store/verify-packed.ts); a snapshot of per-URL files (version 1, folders only) by the
 * folder check shared with the mirror (snapshots/store/verify-folder.ts).
 *
 * @example
 *   const r = await verifySnapshot('s3://snapshots/catalog', { publicKey, env: process.env });
 *   r.problems  // [] when everything matches
 */
import type { KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { parseStoreCurrent } from '../../snapshots/store/publish-pointer.js';
import { CatalogError } from '../../snapshots/errors.js';
import { MANIFEST_FILE } from '../../snapshots/keys.js';
import { MANIFEST_VERSION_PACKS } from '../../snapshots/manifest.js';
import { parseStoreLocation, type BlobStore } from '../../snapshots/store/blob-store.js';
import { createFolderBlobStore } from '../../snapshots/store/blob-fs.js';
import { CURRENT_JSON, readCurrentId } from '../../snapshots/store/pointer.js';
import { verifySnapshotFolder } from '../../snapshots/store/verify-folder.js';
import { verifyPackedSnapshot, type PackedVerifyResult, type VerifyProgress } from '../../snapshots/store/verify-packed.js';

/** What was checked and what was wrong; for per-URL files `packs` is 0 and `files` counts the bulk files. */
export interface VerifyResult extends PackedVerifyResult {
  /** `files`: per-URL files (manifest version 1); `packs`: packed (version 2). */
  layout: 'files' | 'packs';
}

export interface VerifyOptions {
  publicKey?: KeyObject;
  progress?: VerifyProgress;
  /** The AWS_* settings for an `s3://` root (default process.env). */
  env?: NodeJS.ProcessEnv;
}

const nothingPublished = (location: string) =>
  new CatalogError('not_found', `no snapshot is published under ${location} (no current pointer); run catalog compile first`);

/** The id `current.json` names in a store, or null when there is none (or it names no snapshot). */
async function readStorePointer(store: BlobStore): Promise<string | null> {
  const bytes = await store.get(CURRENT_JSON);
  if (bytes === null) return null;
  const parsed = parseStoreCurrent(bytes);
  if ('id' in parsed) return parsed.id;
  if (parsed.problem === 'not_json') throw new CatalogError('verify_failed', `${store.location}: ${CURRENT_JSON} is not JSON; it should be {"snapshotId": "..."}`);
  throw new CatalogError('verify_failed', `${store.location}: ${CURRENT_JSON} names no snapshot id (${JSON.stringify(parsed.value)})`);
}

export async function verifySnapshot(location: string, options: VerifyOptions = {}): Promise<VerifyResult> {
  const where = parseStoreLocation(location, 'verify <root>');
  let store: BlobStore;
  if (where.kind === 'folder') {
    store = createFolderBlobStore(where.path);
  } else {
    const { createS3BlobStore } = await import('../../snapshots/store/blob-s3.js');
    store = createS3BlobStore({ bucket: where.bucket, prefix: where.prefix, env: options.env });
  }
  try {
    // A folder's pointer is the `current` link the proxy follows; an object store has only current.json,
    // and so has a folder copied from one (`aws s3 sync` makes no links).
    const id = (where.kind === 'folder' ? await readCurrentId(where.path) : null) ?? (await readStorePointer(store));
    if (id === null) throw nothingPublished(location);
    const manifest = await readPackedManifest(store, `${id}/${MANIFEST_FILE}`);
    if (manifest === undefined) throw new CatalogError('verify_failed', `snapshot ${id}: no ${MANIFEST_FILE} under ${location}, though the pointer names it`);
    if (manifest !== null) {
      const r = await verifyPackedSnapshot(store, id, manifest, {
        publicKey: options.publicKey,
        progress: options.progress,
        localRoot: where.kind === 'folder' ? where.path : null,
      });
      return { ...r, layout: 'packs' };
    }
    if (where.kind !== 'folder') {
      throw new CatalogError('verify_failed', `snapshot ${id} under ${location} is not packed (manifest version 2); an object store holds only packed snapshots`);
    }
    let seen = 0;
    options.progress?.phase('verify', null);
    const r = await verifySnapshotFolder(join(where.path, id), {
      publicKey: options.publicKey,
      onProgress: (checked) => {
        options.progress?.advance(checked - seen);
        seen = checked;
      },
    });
    const bulk = r.header.bulk?.length ?? 0;
    return { snapshotId: id, layout: 'files', objects: r.checked - bulk, packs: 0, files: bulk, problems: r.problems, signature: r.signature, header: r.header };
  } finally {
    await store.close();
  }
}

/** Enough of a manifest to read its first line: a version-1 manifest is hundreds of MB at a million cards. */
const FIRST_LINE_BYTES = 2 ** 20;

/**
 * The whole manifest when it is a packed one (version 2: one header line, small), null when it is
 * another version, undefined when there is none.
 */
async function readPackedManifest(store: BlobStore, key: string): Promise<Buffer | null | undefined> {
  const head = await store.head(key);
  if (head === null) return undefined;
  if (head.size === 0) return null;
  const start = await store.getRange(key, 0, Math.min(head.size, FIRST_LINE_BYTES));
  if (start === null) return undefined;
  const end = start.indexOf(10);
  let version: unknown;
  try {
    version = (JSON.parse(start.subarray(0, end === -1 ? start.length : end).toString('utf8')) as { version?: unknown }).version;
  } catch {
    return null;
  }
  if (version !== MANIFEST_VERSION_PACKS) return null;
  return start.length === head.size ? start : ((await store.get(key)) ?? undefined);
}
