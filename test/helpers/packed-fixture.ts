/**
 * Turns a snapshot root of per-URL files (what `catalog compile` wrote before issue 17) into a
 * packed snapshot root with the shared format's own writers (pack-writer.ts, writeObjectIndex, a
 * version-2 manifest, signed like the compile signs), snapshot by snapshot and oldest first, each
 * snapshot packing only the objects no earlier pack holds: the shape an incremental packed compile
 * leaves. For route and mirror tests of packed snapshots whatever `catalog compile` writes.
 *
 * @example
 *   packRoot(compiledRoot, packedRoot, privateKey)   // packedRoot/packs/*.pack, packedRoot/<id>/objects.sqlite, …
 */
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sha256Hex } from '../../snapshots/codec.js';
import { CHANGES_FILE, MANIFEST_FILE, MANIFEST_SIGNATURE_FILE, OBJECT_INDEX_FILE, PACKS_DIR, SEARCH_DB_FILE } from '../../snapshots/keys.js';
import { MANIFEST_VERSION_PACKS, type ManifestEntry, type ManifestHeader, type SnapshotFileRef } from '../../snapshots/manifest.js';
import { writeObjectIndex, type IndexRow } from '../../snapshots/packs/object-index.js';
import { createPackWriter } from '../../snapshots/packs/pack-writer.js';
import { signManifest } from '../../snapshots/signature.js';
import { isSnapshotId, switchCurrent } from '../../snapshots/store/pointer.js';

interface Where { pack: string; offset: number; length: number }

function manifestOf(dir: string): { header: ManifestHeader; entries: ManifestEntry[] } {
  const lines = readFileSync(join(dir, MANIFEST_FILE), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  return { header: lines[0], entries: lines.slice(1) };
}

/** Packs the snapshots of `from` that `to` does not hold yet; returns their ids, oldest first. */
export async function packRoot(from: string, to: string, signKey: KeyObject, options: { targetBytes?: number } = {}): Promise<string[]> {
  const known = new Map<string, Where>();
  const ids = readdirSync(from).filter((n) => isSnapshotId(n) && existsSync(join(from, n, MANIFEST_FILE))).sort();
  const done: string[] = [];
  for (const id of ids) {
    const { header, entries } = manifestOf(join(from, id));
    if (existsSync(join(to, id, MANIFEST_FILE))) {
      // Packed before: remember where its objects are, so the next snapshot re-uses them.
      const db = new Database(join(to, id, OBJECT_INDEX_FILE), { readonly: true });
      for (const r of db.prepare('SELECT o.offset, o.length, o.sha256, p.sha256 AS pack FROM objects o JOIN packs p ON p.seq = o.pack').all() as { offset: number; length: number; sha256: Buffer; pack: string }[]) {
        known.set(r.sha256.toString('hex'), { pack: r.pack, offset: r.offset, length: r.length });
      }
      db.close();
      continue;
    }
    const writer = createPackWriter({ dir: join(to, PACKS_DIR), targetBytes: options.targetBytes ?? 64 * 1024 });
    const pending: { e: ManifestEntry; at: Where | { seq: number; offset: number; length: number } }[] = [];
    for (const e of entries) {
      const old = known.get(e.sha256);
      if (old) pending.push({ e, at: old });
      else {
        const at = writer.append(readFileSync(join(from, id, e.key)));
        pending.push({ e, at: { seq: at.pack, offset: at.offset, length: at.length } });
      }
    }
    const sealed = writer.finish();
    const packOfSeq = new Map(sealed.map((p) => [p.seq, p]));
    const located = pending.map(({ e, at }) => ({ e, where: 'pack' in at ? at : { pack: packOfSeq.get(at.seq)!.sha256, offset: at.offset, length: at.length } }));
    const sizes = new Map(sealed.map((p) => [p.sha256, p.size]));
    for (const p of readdirSync(join(to, PACKS_DIR))) if (p.endsWith('.pack')) sizes.set(p.slice(0, -5), readFileSync(join(to, PACKS_DIR, p)).length);
    const used = [...new Set(located.map((l) => l.where.pack))].sort();
    const seqOf = new Map(used.map((sha, i) => [sha, i]));
    const dir = join(to, id);
    mkdirSync(dir, { recursive: true });
    const db = new Database(join(dir, OBJECT_INDEX_FILE));
    const rows: IndexRow[] = located.map(({ e, where }) => ({ key: e.key, pack: seqOf.get(where.pack)!, offset: where.offset, length: where.length, sha256: e.sha256, input: e.input }));
    writeObjectIndex(db, used.map((sha256) => ({ sha256, size: sizes.get(sha256)! })), rows);
    db.close();
    for (const { e, where } of located) known.set(e.sha256, where);
    const files: SnapshotFileRef[] = [];
    for (const name of [OBJECT_INDEX_FILE, SEARCH_DB_FILE, CHANGES_FILE]) {
      if (name !== OBJECT_INDEX_FILE) {
        if (!existsSync(join(from, id, name))) continue;
        copyFileSync(join(from, id, name), join(dir, name));
      }
      const bytes = readFileSync(join(dir, name));
      files.push({ name, size: bytes.length, sha256: sha256Hex(bytes) });
    }
    if (existsSync(join(from, id, 'bulk'))) cpSync(join(from, id, 'bulk'), join(dir, 'bulk'), { recursive: true });
    const packed: ManifestHeader = { ...header, version: MANIFEST_VERSION_PACKS, packs: used.map((sha256) => ({ sha256, size: sizes.get(sha256)! })), files };
    const manifest = Buffer.from(JSON.stringify(packed) + '\n');
    writeFileSync(join(dir, MANIFEST_SIGNATURE_FILE), JSON.stringify(signManifest(signKey, { snapshotId: id, sha256: sha256Hex(manifest), size: manifest.length })) + '\n');
    writeFileSync(join(dir, MANIFEST_FILE), manifest);
    await switchCurrent(to, id);
    done.push(id);
  }
  return done;
}
