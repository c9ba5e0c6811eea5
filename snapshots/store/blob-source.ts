/**
 * Packed snapshots (issue 17) read from a BlobStore: what `catalog serve --snapshots
 * s3://bucket/prefix` serves from. The same SnapshotSource as the folder's (fs.ts), so the proxy
 * answers the same bytes, ETags and headers from either store.
 *
 * - The pointer is `current.json`, read at most once per `pollMs` (default 5 s: on S3 every read is
 *   a billed GET, and the proxy asks every 250 ms), concurrent reads merged into one.
 * - A snapshot's manifest, object index and search index are copied once into a local cache folder
 *   (`<cacheDir>/<id>/`), checked against the manifest's sizes and SHA-256 first (blob-download.ts):
 *   lookups are prepared statements on a local SQLite file, as on the folder store. A switch serves
 *   the previous snapshot until the new one's files are local, so a publish never stalls requests.
 * - An object is one ranged GET of `packs/<sha256>.pack` for exactly its bytes, checked against the
 *   index's SHA-256, kept in a byte-bounded cache keyed by that hash (objects never change, so an
 *   entry never goes stale, and objects shared by the next snapshot stay hits), concurrent reads of
 *   one object merged into one GET.
 * - Bulk files, the change list and the signature are streamed by ranged GETs (blob-file.ts).
 * - A snapshot's local folder is removed once it has gone unused for `graceMs` (as the folder
 *   store's index handles are, packed-fs.ts). Worker processes may share the cache folder: each
 *   touches the folders it uses, and only folders nobody touched for twice the grace period go.
 *
 * Memory does not grow with the catalog: the object cache is bounded, listings are read a page at a
 * time from the local index, and downloads and streams hold one chunk at a time.
 *
 * @example
 *   const source = createBlobSnapshotSource({ store: await openBlobStore('s3://snaps/catalog', '--snapshots'), cacheDir: '/var/cache/catalog' });
 *   const reader = await source.current();
 *   await reader?.get('v1/catalog/summary.json.gz');
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { CatalogError } from '../errors.js';
import { MANIFEST_FILE, OBJECT_INDEX_FILE, PACKS_DIR, SEARCH_DB_FILE } from '../keys.js';
import { isPackedHeader, MANIFEST_FORMAT, type ManifestHeader } from '../manifest.js';
import { createObjectLookup, type ObjectLocation, type ObjectLookup } from '../packs/object-index.js';
import { isPackHash } from '../packs/pack-reader.js';
import { packFileName } from '../packs/pack-writer.js';
import type { BlobStore } from './blob-store.js';
import { downloadChecked } from './blob-download.js';
import { blobFile, STREAM_CHUNK_BYTES } from './blob-file.js';
import { createByteLru } from './byte-lru.js';
import { makeDirs } from './make-dirs.js';
import { indexEntries, openIndexFile } from './packed-fs.js';
import { CURRENT_JSON, isSnapshotId } from './pointer.js';
import { parseStoreCurrent } from './publish-pointer.js';
import type { KeptSnapshot, SnapshotFile, SnapshotReader, SnapshotSource } from './types.js';
import { parsePackedManifest } from './publish-contents.js';

export const DEFAULT_POLL_MS = 5_000;
export const DEFAULT_BLOB_CACHE_BYTES = 32 * 1024 * 1024;
const DEFAULT_GRACE_MS = 60_000;
/** How long a failed read of the pointer is answered again before the store is asked anew. */
const POINTER_RETRY_MS = 1_000;
/** Sizes of files outside the manifest (the signature) remembered per snapshot, at most. */
const MAX_KNOWN_SIZES = 64;

export interface BlobSnapshotSourceOptions {
  store: BlobStore;
  /** Local folder for the snapshots' manifest, object index and search index (created if absent). */
  cacheDir: string;
  /** How long a read of `current.json` is re-used, in ms (default 5 s). */
  pollMs?: number;
  /** Budget of the in-memory object cache, in bytes (default 32 MiB). */
  objectCacheBytes?: number;
  /** How long the local files of a snapshot no longer used are kept, in ms (default 60 s). */
  graceMs?: number;
  /** Bytes per ranged GET when a bulk file is streamed (default 1 MiB). */
  streamChunkBytes?: number;
  /** Told when a snapshot's files cannot be fetched (e.g. a new publish, while the previous one is still served). */
  onError?: (err: unknown, snapshotId: string) => void;
  now?: () => number;
}

export interface BlobSourceStats {
  /** Bytes and entries held by the object cache (bounded by objectCacheBytes). */
  objectCacheBytes: number;
  objectCacheEntries: number;
  /** Ranged GETs of pack bytes made so far (cache misses, after merging). */
  objectGets: number;
  /** Reads of `current.json` made so far. */
  pointerReads: number;
  /** Snapshots whose files are local right now. */
  localSnapshots: string[];
}

export interface BlobSnapshotSource extends SnapshotSource {
  stats(): BlobSourceStats;
  close(): Promise<void>;
}

/** One snapshot whose files are in the cache folder, with its index open. */
interface Local {
  id: string;
  dir: string;
  manifest: SnapshotFile;
  db: Database.Database;
  lookup: ObjectLookup;
  searchPath: string | null;
  /** Sizes of the snapshot's files by name (from the manifest; others asked once). */
  sizes: Map<string, number | null>;
  lastUsed: number;
  touchedAt: number;
  /** When the store last showed its manifest (open() re-checks after pollMs: a prune removes it). */
  seenAt: number;
}

export function createBlobSnapshotSource(options: BlobSnapshotSourceOptions): BlobSnapshotSource {
  const { cacheDir } = options;
  const store = unreadableAsUnavailable(options.store);
  const pollMs = positive(options.pollMs ?? DEFAULT_POLL_MS, 'pollMs');
  const graceMs = positive(options.graceMs ?? DEFAULT_GRACE_MS, 'graceMs');
  const chunkBytes = positive(options.streamChunkBytes ?? STREAM_CHUNK_BYTES, 'streamChunkBytes');
  const now = options.now ?? Date.now;
  const objects = createByteLru(options.objectCacheBytes ?? DEFAULT_BLOB_CACHE_BYTES);
  const inflight = new Map<string, Promise<Buffer>>();
  const locals = new Map<string, Local>();
  const preparing = new Map<string, Promise<Local>>();
  // A snapshot that failed to prepare is not tried again before pollMs (the proxy asks every 250 ms).
  const failures = new Map<string, { at: number; err: unknown }>();
  let served: string | null = null;
  let pointed: { at: number; id: string | null } | null = null;
  let pointerRead: Promise<string | null> | null = null;
  let pointerFailure: { at: number; err: unknown } | null = null;
  let objectGets = 0;
  let pointerReads = 0;
  let listed: { at: number; ids: Promise<KeptSnapshot[]> } | null = null;

  /** Complete snapshots (those with a manifest), oldest first; a header is one GET of a one-line manifest. */
  const listKept = async (): Promise<KeptSnapshot[]> => {
    const ids: string[] = [];
    for await (const item of store.list('')) {
      const slash = item.key.indexOf('/');
      const id = item.key.slice(0, slash);
      if (slash > 0 && item.key === `${id}/${MANIFEST_FILE}` && isSnapshotId(id)) ids.push(id);
    }
    return ids.sort().map((id) => ({
      id,
      header: async () => {
        const key = `${id}/${MANIFEST_FILE}`;
        const bytes = await store.get(key);
        if (bytes === null) throw new CatalogError('gone', `snapshot ${id} was pruned while it was read`);
        return parsePackedManifest(bytes, `${store.location}${key}`);
      },
    }));
  };

  const readPointer = async (): Promise<string | null> => {
    pointerReads++;
    const bytes = await store.get(CURRENT_JSON);
    if (bytes === null) return null;
    const parsed = parseStoreCurrent(bytes);
    if ('problem' in parsed) {
      throw new CatalogError('corrupt_object', `${store.location}: ${CURRENT_JSON} does not name a snapshot ({"snapshotId": "<id>"}); publish again`);
    }
    return parsed.id;
  };

  /**
   * The id `current.json` names, read from the store at most once per pollMs. A failed read is
   * answered again for up to a second: while the store is down, every request would otherwise
   * send its own GET to it (the proxy does not remember failures, snapshot-pointer.ts).
   */
  const pointer = (): Promise<string | null> => {
    const at = now();
    if (pointed !== null && at - pointed.at < pollMs) return Promise.resolve(pointed.id);
    if (pointerFailure !== null && at - pointerFailure.at < Math.min(pollMs, POINTER_RETRY_MS)) return Promise.reject(pointerFailure.err);
    pointerRead ??= readPointer()
      .then(
        (id) => {
          pointed = { at: now(), id };
          pointerFailure = null;
          return id;
        },
        (err: unknown) => {
          pointerFailure = { at: now(), err };
          throw err;
        },
      )
      .finally(() => {
        pointerRead = null;
      });
    return pointerRead;
  };

  const release = (local: Local) => {
    locals.delete(local.id);
    local.db.close();
    void rm(local.dir, { recursive: true, force: true }).catch(() => undefined);
  };

  /** Drops local snapshots unused for graceMs (never the served one). */
  const sweep = (at: number) => {
    for (const local of locals.values()) {
      if (local.id !== served && at - local.lastUsed > graceMs) release(local);
    }
  };

  /**
   * Folders of the cache that no process has touched for twice the grace period: snapshots of
   * earlier runs, or of workers that moved on. Run when a snapshot is prepared, which is rare.
   */
  const sweepDisk = async () => {
    const names = await readdir(cacheDir).catch(() => [] as string[]);
    const cutoff = Date.now() - 2 * graceMs;
    for (const name of names) {
      if (!isSnapshotId(name) || locals.has(name) || preparing.has(name)) continue;
      const s = await stat(join(cacheDir, name)).catch(() => null);
      if (s !== null && s.mtimeMs < cutoff) await rm(join(cacheDir, name), { recursive: true, force: true }).catch(() => undefined);
    }
  };

  const use = (local: Local): Local => {
    const at = now();
    local.lastUsed = at;
    if (at - local.touchedAt > graceMs / 4) {
      local.touchedAt = at;
      // Tells the other processes sharing the cache folder that this snapshot is in use (sweepDisk).
      const t = new Date();
      void utimes(local.dir, t, t).catch(() => undefined);
    }
    return local;
  };

  const prepare = async (id: string): Promise<Local> => {
    const manifestKey = `${id}/${MANIFEST_FILE}`;
    const manifest = await store.get(manifestKey);
    if (manifest === null) {
      throw new CatalogError('corrupt_object', `${store.location}: snapshot ${id} has no ${MANIFEST_FILE} (the pointer names an incomplete snapshot); run catalog verify`, { snapshotId: id });
    }
    const header = parseHeader(manifest, store.location, id);
    const dir = join(cacheDir, id);
    await makeDirs(dir);
    const refOf = (name: string) => header.files?.find((f) => f.name === name);
    const indexRef = refOf(OBJECT_INDEX_FILE);
    if (indexRef === undefined) {
      throw new CatalogError('corrupt_object', `${store.location}: the manifest of snapshot ${id} lists no ${OBJECT_INDEX_FILE}; run catalog verify`, { snapshotId: id });
    }
    const objectsPath = join(dir, OBJECT_INDEX_FILE);
    await downloadChecked(store, `${id}/${OBJECT_INDEX_FILE}`, objectsPath, indexRef);
    const searchRef = refOf(SEARCH_DB_FILE);
    const searchPath = searchRef === undefined ? null : join(dir, SEARCH_DB_FILE);
    if (searchRef !== undefined) await downloadChecked(store, `${id}/${SEARCH_DB_FILE}`, searchPath!, searchRef);
    // For the operator who looks into the cache folder; the proxy serves the manifest from memory.
    await writeFile(join(dir, MANIFEST_FILE), manifest);
    const db = openIndexFile(objectsPath, id);
    let lookup: ObjectLookup;
    try {
      lookup = createObjectLookup(db);
    } catch (err) {
      db.close();
      throw err;
    }
    const sizes = new Map<string, number | null>();
    for (const f of header.files ?? []) sizes.set(f.name, f.size);
    for (const b of header.bulk ?? []) sizes.set(b.file, b.size);
    const at = now();
    return { id, dir, manifest: bufferFile(manifest), db, lookup, searchPath, sizes, lastUsed: at, touchedAt: at, seenAt: at };
  };

  /** The snapshot's local files, fetched at most once at a time and not retried within pollMs of a failure. */
  const prepareOnce = (id: string): Promise<Local> => {
    const ready = locals.get(id);
    if (ready !== undefined) return Promise.resolve(use(ready));
    const failed = failures.get(id);
    if (failed !== undefined && now() - failed.at < pollMs) return Promise.reject(failed.err);
    let pending = preparing.get(id);
    if (pending === undefined) {
      pending = prepare(id).then(
        (local) => {
          preparing.delete(id);
          failures.delete(id);
          locals.set(id, local);
          void sweepDisk();
          return local;
        },
        (err: unknown) => {
          preparing.delete(id);
          failures.set(id, { at: now(), err });
          options.onError?.(err, id);
          throw err;
        },
      );
      preparing.set(id, pending);
    }
    return pending;
  };

  /** The local files of `id`, fetched again if another process's sweep removed its search index. */
  const localOf = async (id: string, needSearch = false): Promise<Local> => {
    const local = locals.get(id);
    if (local !== undefined && needSearch && local.searchPath !== null && !existsSync(local.searchPath)) release(local);
    return use(await prepareOnce(id));
  };

  const fetchObject = async (where: ObjectLocation): Promise<Buffer> => {
    // The hash comes from the snapshot's own index, but it still becomes a key: check its shape.
    if (!isPackHash(where.pack)) throw new CatalogError('corrupt_object', `the index names a pack that is not a SHA-256: ${JSON.stringify(where.pack.slice(0, 80))}`);
    const key = `${PACKS_DIR}/${packFileName(where.pack)}`;
    objectGets++;
    let bytes: Buffer | null;
    try {
      bytes = await store.getRange(key, where.offset, where.length);
    } catch (err) {
      if (!(err instanceof CatalogError) || err.code !== 'range_not_satisfiable') throw err;
      throw new CatalogError('corrupt_object', `${store.location}: ${key} ends before byte ${where.offset + where.length} (an object at ${where.offset}, ${where.length} bytes); run catalog verify`, { key }, { cause: err });
    }
    if (bytes === null) throw new CatalogError('corrupt_object', `${store.location}: pack ${where.pack} is missing; run catalog verify on the snapshot root`, { key });
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (sha256 !== where.sha256) {
      throw new CatalogError('corrupt_object', `${store.location}: bytes ${where.offset}+${where.length} of ${key} hash to ${sha256}, not the ${where.sha256} of the index; run catalog verify`, { key });
    }
    objects.set(sha256, bytes);
    return bytes;
  };

  const readObject = (where: ObjectLocation): Promise<Buffer> => {
    const hit = objects.get(where.sha256);
    if (hit !== undefined) return Promise.resolve(hit);
    let pending = inflight.get(where.sha256);
    if (pending === undefined) {
      pending = fetchObject(where).finally(() => inflight.delete(where.sha256));
      inflight.set(where.sha256, pending);
    }
    return pending;
  };

  const fileOf = async (id: string, name: string): Promise<SnapshotFile | null> => {
    const local = await localOf(id);
    if (name === MANIFEST_FILE) return local.manifest;
    let size = local.sizes.get(name);
    if (size === undefined) {
      size = (await store.head(`${id}/${name}`))?.size ?? null;
      if (local.sizes.size < MAX_KNOWN_SIZES) local.sizes.set(name, size);
    }
    return size === null ? null : blobFile(store, `${id}/${name}`, size, chunkBytes);
  };

  const readerOf = (id: string): SnapshotReader => ({
    id,
    async get(key) {
      const where = (await localOf(id)).lookup.get(key);
      return where === null ? null : readObject(where);
    },
    async searchDbPath() {
      return (await localOf(id, true)).searchPath;
    },
    file: (name) => fileOf(id, name),
    async *entries() {
      const local = await localOf(id);
      // A connection of its own on the local copy; it reads on even if a sweep unlinks the file.
      yield* indexEntries(join(local.dir, OBJECT_INDEX_FILE), id);
    },
    async pack(sha256) {
      // The hash becomes a key: its shape is checked here too, not only by the route.
      if (!isPackHash(sha256)) return null;
      const key = `${PACKS_DIR}/${packFileName(sha256)}`;
      const size = (await store.head(key))?.size ?? null;
      return size === null ? null : blobFile(store, key, size, chunkBytes);
    },
  });

  return {
    async current() {
      const id = await pointer();
      sweep(now());
      if (id === null) return null;
      if (id === served || locals.has(id)) {
        served = id;
        use(locals.get(id) ?? (await prepareOnce(id)));
        return readerOf(id);
      }
      const pending = prepareOnce(id);
      if (served === null || !locals.has(served)) {
        await pending;
        served = id;
        return readerOf(id);
      }
      // Keep serving the previous snapshot until the new one's files are local (a failure was
      // reported by prepareOnce and is tried again after pollMs).
      pending.catch(() => undefined);
      return readerOf(served);
    },
    async open(id) {
      if (!isSnapshotId(id)) return null;
      const local = locals.get(id);
      if (id !== served && (local === undefined || now() - local.seenAt >= pollMs)) {
        // Complete snapshots have a manifest; a pruned one no longer does.
        if ((await store.head(`${id}/${MANIFEST_FILE}`)) === null) return null;
        if (local !== undefined) local.seenAt = now();
      }
      await prepareOnce(id);
      return readerOf(id);
    },
    list() {
      // One listing of the store per pollMs at most (a LIST is a billed request, and the feed may
      // be polled often); a failure is not remembered.
      if (listed !== null && now() - listed.at < pollMs) return listed.ids;
      const ids = listKept();
      const entry = { at: now(), ids };
      listed = entry;
      ids.catch(() => {
        if (listed === entry) listed = null;
      });
      return ids;
    },
    stats: () => ({
      objectCacheBytes: objects.bytes,
      objectCacheEntries: objects.size,
      objectGets,
      pointerReads,
      localSnapshots: [...locals.keys()],
    }),
    async close() {
      await Promise.allSettled(preparing.values());
      for (const local of locals.values()) local.db.close();
      locals.clear();
      await store.close();
    },
  };
}

/** Store failures the proxy may answer with: a missing or corrupt object is the snapshot's fault, the rest the store's. */
const SNAPSHOT_FAULTS = new Set(['corrupt_object', 'range_not_satisfiable', 'invalid_parameter']);

/**
 * The store with its failures (unreachable, refused credentials, missing bucket, I/O) turned into
 * 503 `unavailable` with a message fit for a partner: the S3 error names the endpoint, the bucket
 * and the credentials, which are the operator's business (and a 403 about credentials would read
 * as the partner's key being refused). The operator's message stays the cause, logged with the
 * request (proxy/errors.ts), with readiness and with a failed switch.
 */
function unreadableAsUnavailable(store: BlobStore): BlobStore {
  const guard = <A extends unknown[], R>(call: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    try {
      return await call(...args);
    } catch (err) {
      if (err instanceof CatalogError && SNAPSHOT_FAULTS.has(err.code)) throw err;
      throw new CatalogError('unavailable', 'the snapshot store cannot be read right now; try again later', {}, { cause: err });
    }
  };
  return {
    location: store.location,
    put: guard(store.put.bind(store)),
    get: guard(store.get.bind(store)),
    getRange: guard(store.getRange.bind(store)),
    head: guard(store.head.bind(store)),
    list: (prefix) => store.list(prefix),
    delete: guard(store.delete.bind(store)),
    close: () => store.close(),
  };
}

function positive(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new CatalogError('config', `${name} must be a whole number >= 1, got ${String(value)}`);
  return value;
}

/** The header of a manifest read whole; a version-1 snapshot cannot be served from an object store. */
function parseHeader(manifest: Buffer, location: string, id: string): ManifestHeader {
  const text = manifest.toString('utf8');
  const nl = text.indexOf('\n');
  let header: ManifestHeader;
  try {
    header = JSON.parse(nl === -1 ? text : text.slice(0, nl)) as ManifestHeader;
  } catch (err) {
    throw new CatalogError('corrupt_object', `${location}: the manifest of snapshot ${id} is not JSON; run catalog verify`, { snapshotId: id }, { cause: err });
  }
  if (header?.format !== MANIFEST_FORMAT) throw new CatalogError('corrupt_object', `${location}: ${id}/${MANIFEST_FILE} is not a catalog manifest`, { snapshotId: id });
  if (!isPackedHeader(header)) {
    throw new CatalogError(
      'config',
      `${location}: snapshot ${id} has the version-${String(header.version)} layout (one file per object), which is served from a folder only; ` +
        'an object store serves packed snapshots (version 2): compile again with this version of catalog, or serve the folder it was compiled to',
      { snapshotId: id },
    );
  }
  return header;
}

/** The manifest, held in memory: one line of a few KB in a packed snapshot. */
function bufferFile(bytes: Buffer): SnapshotFile {
  const version = createHash('sha256').update(bytes).digest('hex');
  return {
    size: bytes.length,
    version,
    stream: (start, end) => Readable.from([bytes.subarray(start, end + 1)]),
    bytes: async () => bytes,
  };
}
