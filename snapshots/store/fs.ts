/**
 * Filesystem store: a snapshot root holds one folder per snapshot plus the `current` pointer.
 *
 * @example
 *   const source = createFsSnapshotSource('/data/snapshots');
 *   const snap = await source.current();               // null before the first publish
 *   const bytes = await snap?.get('v1/catalog/summary.json.gz');
 */
import { readdirSync, readFileSync, rmdirSync, unlinkSync, writeFileSync, existsSync, type Dirent } from 'node:fs';
import { writeFile, readdir, unlink, stat, readFile } from 'node:fs/promises';
import { createReadStream, createWriteStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { once } from 'node:events';
import { MANIFEST_FILE, OBJECT_INDEX_FILE, PACKS_DIR, SEARCH_DB_FILE } from '../keys.js';
import { isManifestHeader, readManifest, readManifestHeader } from '../manifest.js';
import type { SnapshotEntry, SnapshotFile, SnapshotReader, SnapshotSource, SnapshotWriter } from './types.js';
import { isSnapshotId, readCurrentId } from './pointer.js';
import { makeDirs, makeDirsSync } from './make-dirs.js';
import { createPackedSnapshots, type PackedSnapshots } from './packed-fs.js';
import { isPackHash } from '../packs/pack-reader.js';
import { PACK_SUFFIX, packFileName } from '../packs/pack-writer.js';
import { retainedSnapshots, type Retention } from './retention.js';

/**
 * A snapshot folder of either layout: packed (an object index beside the search index, objects in
 * the root's shared packs) or per-URL files (one file per object, the layout before issue 17).
 * `packed` is shared by every reader of one root; without it a packed snapshot gets its own.
 */
export function createFsSnapshotReader(root: string, id: string, packed?: PackedSnapshots): SnapshotReader {
  const dir = join(root, id);
  if (existsSync(join(dir, OBJECT_INDEX_FILE))) return packedReader(root, id, packed ?? createPackedSnapshots(root));
  return filesReader(dir, id);
}

function packedReader(root: string, id: string, packed: PackedSnapshots): SnapshotReader {
  const dir = join(root, id);
  return {
    id,
    async get(key) {
      // Synchronous like the per-file read below: one B-tree lookup and one pread from the page cache.
      return packed.get(id, key);
    },
    async searchDbPath() {
      const p = join(dir, SEARCH_DB_FILE);
      return existsSync(p) ? p : null;
    },
    async file(name) {
      return openFsFile(join(dir, name));
    },
    entries: () => packed.entries(id),
    async pack(sha256) {
      // The hash becomes a path: its shape is checked here too, not only by the route.
      return isPackHash(sha256) ? openFsFile(join(root, PACKS_DIR, packFileName(sha256))) : null;
    },
  };
}

async function* manifestEntries(path: string): AsyncGenerator<SnapshotEntry> {
  for await (const item of readManifest(path)) {
    if (!isManifestHeader(item)) yield { key: item.key, size: item.size, sha256: item.sha256 };
  }
}

function filesReader(dir: string, id: string): SnapshotReader {
  return {
    id,
    async get(key) {
      // A synchronous read on purpose: objects are small local files (a card is ~1 KB gzip, a list
      // page tens of KB) that the proxy reads on every object-cache miss. readFileSync costs ~11 µs
      // there, fs/promises readFile ~65 µs (open, fstat, read, close as four thread-pool round
      // trips: nodejs/node#37583, nodejs/node#52046). The page cache serves these reads, so the
      // event loop is held for microseconds, which is less than the promise version's CPU alone.
      try {
        return readFileSync(join(dir, key));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
        throw err;
      }
    },
    async searchDbPath() {
      const p = join(dir, SEARCH_DB_FILE);
      return existsSync(p) ? p : null;
    },
    async file(name) {
      return openFsFile(join(dir, name));
    },
    entries: () => manifestEntries(join(dir, MANIFEST_FILE)),
  };
}

/**
 * A file of a snapshot folder. Names come from the snapshot's own manifest or from constants, never
 * from a request. The size is taken when opened: snapshot files are immutable once published.
 */
async function openFsFile(path: string): Promise<SnapshotFile | null> {
  let size: number;
  let version: string;
  try {
    const s = await stat(path);
    if (!s.isFile()) return null;
    size = s.size;
    version = `${s.size}-${s.mtimeMs}`;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw err;
  }
  return {
    size,
    version,
    stream: (start, end) => createReadStream(path, { start, end }),
    bytes: () => readFile(path),
  };
}

export function createFsSnapshotSource(root: string): SnapshotSource {
  // Packed snapshots share pack descriptors and index handles; a snapshot's layout never changes,
  // so it is looked up once per id, not on every resolution of `current` (every 250 ms).
  const packed = createPackedSnapshots(root);
  const readers = new Map<string, SnapshotReader>();
  const readerOf = (id: string): SnapshotReader => {
    let r = readers.get(id);
    if (r === undefined) {
      r = createFsSnapshotReader(root, id, packed);
      readers.set(id, r);
      if (readers.size > 16) readers.delete(readers.keys().next().value!);
    }
    return r;
  };
  return {
    async current() {
      const id = await readCurrentId(root);
      return id === null ? null : readerOf(id);
    },
    async open(id) {
      // The id is checked before it becomes a path; a folder without a manifest is incomplete.
      if (!isSnapshotId(id) || !existsSync(join(root, id, MANIFEST_FILE))) return null;
      return readerOf(id);
    },
    async list() {
      return (await listSnapshots(root)).filter((s) => s.complete).map(({ id }) => ({ id, header: () => readManifestHeader(join(root, id, MANIFEST_FILE)) }));
    },
    async close() {
      packed.close();
    },
  };
}

export function createFsSnapshotWriter(root: string, id: string): SnapshotWriter {
  const dir = join(root, id);
  const madeDirs = new Set<string>();
  const ensureDirSync = (path: string) => {
    const d = dirname(path);
    if (madeDirs.has(d)) return;
    makeDirsSync(d);
    madeDirs.add(d);
  };
  return {
    id,
    dir,
    async put(key, bytes) {
      const path = join(dir, key);
      const d = dirname(path);
      if (!madeDirs.has(d)) {
        await makeDirs(d);
        madeDirs.add(d);
      }
      await writeFile(path, bytes);
    },
    putSync(key, bytes) {
      const path = join(dir, key);
      ensureDirSync(path);
      writeFileSync(path, bytes);
    },
    async writeFile(name, content) {
      const path = join(dir, name);
      await makeDirs(dirname(path));
      if (typeof content === 'string' || Buffer.isBuffer(content)) {
        await writeFile(path, content);
        return;
      }
      const out = createWriteStream(path);
      for (const chunk of content) {
        if (!out.write(chunk)) await once(out, 'drain');
      }
      out.end();
      await once(out, 'finish');
    },
  };
}

/** Snapshot folders of a root, oldest first (ids sort by time). Folders without a manifest are incomplete. */
export async function listSnapshots(root: string): Promise<{ id: string; complete: boolean }[]> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return names
    .filter(isSnapshotId)
    .sort()
    .map((id) => ({ id, complete: existsSync(join(root, id, MANIFEST_FILE)) }));
}

/**
 * Removes the complete snapshots `retention` does not keep (the newest `keep`, plus the newest of each
 * of the last `keepDaily` days: retention.ts; never the current one) and every incomplete one but
 * `except`, then collects the packs no remaining snapshot references (collectPacks).
 */
export async function pruneSnapshots(root: string, retention: number | Retention, except: string[] = []): Promise<string[]> {
  const current = await readCurrentId(root);
  const all = await listSnapshots(root);
  const complete = all.filter((s) => s.complete).map((s) => s.id);
  const keepSet = new Set([...retainedSnapshots(complete, retention), ...except, ...(current ? [current] : [])]);
  const removed: string[] = [];
  for (const s of all) {
    if (keepSet.has(s.id)) continue;
    // The manifest goes first: a prune killed half-way leaves a folder without one, which every
    // reader treats as incomplete (never published, removed by the next compile), instead of a
    // folder that claims to be complete while objects are missing from it.
    await unlink(join(root, s.id, MANIFEST_FILE)).catch(() => undefined);
    removeTreeSync(join(root, s.id));
    removed.push(s.id);
  }
  await collectPacks(root);
  return removed;
}

/**
 * Garbage collection of a root's packs: a pack stays while a complete snapshot's manifest lists it
 * (an incomplete one is removed by the same prune) and is deleted otherwise, so its cost is a few
 * manifest headers and one listing of `packs/`, whatever the number of objects. A temporary pack
 * (`.tmp-<pid>-…`) goes when the process that wrote it is gone: a killed compile's leftovers.
 * Returns the names removed.
 */
export async function collectPacks(root: string): Promise<string[]> {
  const dir = join(root, PACKS_DIR);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const live = new Set<string>();
  for (const s of await listSnapshots(root)) {
    if (!s.complete) continue;
    const header = await readManifestHeader(join(root, s.id, MANIFEST_FILE));
    for (const p of header.packs ?? []) live.add(p.sha256);
  }
  const removed: string[] = [];
  for (const name of names) {
    const sha = name.endsWith(PACK_SUFFIX) ? name.slice(0, -PACK_SUFFIX.length) : null;
    const garbage = sha !== null && isPackHash(sha) ? !live.has(sha) : isDeadTemp(name);
    if (!garbage) continue;
    try {
      unlinkSync(join(dir, name));
      removed.push(name);
    } catch (err) {
      ignoreMissing(err);
    }
  }
  return removed;
}

/** A pack writer's temporary file (`.tmp-<pid>-<random>.pack`) whose process no longer runs. */
function isDeadTemp(name: string): boolean {
  const m = /^\.tmp-([0-9]+)-/.exec(name);
  if (m === null) return false;
  const pid = Number(m[1]);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

const ignoreMissing = (err: unknown) => {
  if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
};

/**
 * Deletes a folder tree with one system call at a time. A snapshot is ~540,000 files at 100,000
 * cards; `fs.promises.rm` spreads the unlinks over the thread pool, where they contend in the file
 * system and took twice the CPU for the same wall time (docs/benchmarks.md, "Pruning"): CPU that a
 * proxy serving on the same host would rather have. Only the CLI prunes, after publishing, so
 * nothing waits on this event loop meanwhile.
 */
export function removeTreeSync(dir: string): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    ignoreMissing(err);
    return;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) removeTreeSync(path);
    else {
      try {
        unlinkSync(path);
      } catch (err) {
        ignoreMissing(err);
      }
    }
  }
  try {
    rmdirSync(dir);
  } catch (err) {
    ignoreMissing(err);
  }
}
