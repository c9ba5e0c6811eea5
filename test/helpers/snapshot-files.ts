/** Reads a published snapshot straight from disk for assertions (packed snapshots, or the per-URL layout). */
import Database from 'better-sqlite3';
import { existsSync, readFileSync, readlinkSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createPackReader } from '../../snapshots/packs/pack-reader.js';

export function currentId(root: string): string | null {
  try {
    return readlinkSync(join(root, 'current'));
  } catch {
    return null;
  }
}

interface IndexedEntry {
  key: string;
  size: number;
  sha256: string;
  pack: string;
  offset: number;
}

/** Every row of a packed snapshot's object index, in key order; null for the per-URL layout. */
export function indexEntries(root: string, id = currentId(root)!): IndexedEntry[] | null {
  const path = join(root, id, 'objects.sqlite');
  if (!existsSync(path)) return null;
  const db = new Database(path, { readonly: true });
  try {
    const rows = db
      .prepare('SELECT o.key AS key, o.length AS size, o.sha256 AS sha, p.sha256 AS pack, o.offset AS offset FROM objects o JOIN packs p ON p.seq = o.pack ORDER BY o.key')
      .all() as { key: string; size: number; sha: Buffer; pack: string; offset: number }[];
    return rows.map((r) => ({ key: r.key, size: r.size, sha256: r.sha.toString('hex'), pack: r.pack, offset: r.offset }));
  } finally {
    db.close();
  }
}

export function manifestEntries(root: string, id = currentId(root)!): { key: string; size: number; sha256: string }[] {
  const indexed = indexEntries(root, id);
  if (indexed) return indexed.map(({ key, size, sha256 }) => ({ key, size, sha256 }));
  const lines = readFileSync(join(root, id, 'manifest.ndjson'), 'utf8').trim().split('\n');
  return lines.slice(1).map((l) => JSON.parse(l));
}

export function manifestHeader(root: string, id = currentId(root)!): Record<string, any> {
  return JSON.parse(readFileSync(join(root, id, 'manifest.ndjson'), 'utf8').split('\n')[0]);
}

/** The stored (gzip) bytes of one object, or null when the snapshot has no such key. */
export function readStored(root: string, key: string, id = currentId(root)!): Buffer | null {
  const indexed = indexEntries(root, id);
  if (indexed === null) return existsSync(join(root, id, key)) ? readFileSync(join(root, id, key)) : null;
  const e = indexed.find((x) => x.key === key);
  if (!e) return null;
  const packs = createPackReader({ dir: join(root, 'packs') });
  try {
    return packs.read(e.pack, e.offset, e.size);
  } finally {
    packs.close();
  }
}

export function readDoc(root: string, key: string, id = currentId(root)!): any {
  const bytes = readStored(root, key, id);
  if (bytes === null) throw new Error(`snapshot ${id} of ${root} has no object ${key}`);
  return JSON.parse(gunzipSync(bytes).toString('utf8'));
}

export function* objectFiles(dir: string): Generator<{ key: string; path: string }> {
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (p.endsWith('.json.gz')) yield { key: relative(dir, p).split(sep).join('/'), path: p };
    }
  }
}

/** Every object of a snapshot (either layout) with its stored bytes, in key order for packed ones. */
export function* storedObjects(root: string, id = currentId(root)!): Generator<{ key: string; bytes: Buffer }> {
  const indexed = indexEntries(root, id);
  if (indexed === null) {
    for (const { key, path } of objectFiles(join(root, id))) yield { key, bytes: readFileSync(path) };
    return;
  }
  const packs = createPackReader({ dir: join(root, 'packs') });
  try {
    for (const e of indexed) yield { key: e.key, bytes: packs.read(e.pack, e.offset, e.size) };
  } finally {
    packs.close();
  }
}
