/**
 * Where the compile puts stored objects (issue 17): new and changed objects are appended to new
 * packs in the root's `packs/` folder; an unchanged object keeps the pack and offset it has in the
 * previous snapshot, so nothing is read, written or linked for it. The index written at publish
 * (object-index.ts) lists every pack it points into.
 *
 * A location is `{ pack, offset }`, where `pack` is a SHA-256 for a pack that already exists and a
 * number (the pack writer's sequence) for one this compile is still writing; `finish()` turns both
 * into positions in the index's pack list.
 *
 * Two cases copy bytes instead of referencing them:
 *   - a previous snapshot of the per-URL layout (before packs): each unchanged object is copied into
 *     the new pack once, which is how a root moves to packs without a full re-render;
 *   - a sparse pack: when less than half of a previous pack's bytes are still referenced, those
 *     objects are copied into the new pack (`compact`), so the old pack is collected once the older
 *     snapshots that use it are pruned, and space does not leak into packs that are mostly garbage.
 *
 * @example
 *   const out = createPackOutput(join(root, 'packs'), previous);
 *   const at = out.write(gzipBytes);           // { pack: 0, offset: 0 }
 *   out.seal();                                // every object written so far is in a sealed pack
 *   out.locate(at)                             // { pack: '9f…', offset: 0 }
 *   const { packs, position } = out.finish();  // packs: [{ sha256, size }], position(at) → index number
 */
import { readFileSync, closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { PackRef } from '../../snapshots/manifest.js';
import { createPackWriter, packFileName, type SealedPack } from '../../snapshots/packs/pack-writer.js';
import type { ObjectLoc, StoredObject } from './object-columns.js';
import type { PreviousObject, PreviousSnapshot } from './previous.js';

export type { ObjectLoc };

export interface PackOutput {
  /** Appends the stored bytes of a new or changed object. */
  write(bytes: Buffer): ObjectLoc;
  /** The location of an unchanged object of the previous snapshot (copied once if it has no pack). */
  reuse(key: string, before: PreviousObject): ObjectLoc;
  /** Seals the open pack, so every object written so far can be read back by file and offset. */
  seal(): void;
  /** The pack (SHA-256) and offset of an object; objects written since the last `seal()` have none yet. */
  locate(at: ObjectLoc): { pack: string; offset: number };
  /**
   * Copies the objects of previous packs that are mostly garbage into the new pack; `objects` are
   * every object of the new snapshot, and `relocate` records each new location. Returns the packs rewritten.
   */
  compact(objects: Iterable<StoredObject>, relocate: (key: string, at: ObjectLoc) => void): string[];
  /** Seals the last pack; the index's pack list and each location's position in it. */
  finish(): { packs: PackRef[]; position(at: ObjectLoc): number; written: SealedPack[] };
  /** Removes the unsealed pack (sealed ones are content-addressed; prune collects unreferenced ones). */
  abort(): void;
}

/** A previous pack is rewritten when less than this share of its bytes is still referenced. */
export const SPARSE_PACK_SHARE = 0.5;

export function createPackOutput(packsDir: string, previous: PreviousSnapshot | null, options: { targetBytes?: number } = {}): PackOutput {
  const writer = createPackWriter({ dir: packsDir, targetBytes: options.targetBytes });
  const sealed = new Map<number, SealedPack>();
  const fileOfSha = (sha256: string) => join(packsDir, packFileName(sha256));

  const copy = (bytes: Buffer): ObjectLoc => writer.append(bytes);

  return {
    write: copy,
    reuse(key, before) {
      if (before.at !== null) return { pack: before.at.pack, offset: before.at.offset };
      // Per-URL previous snapshot: its file holds exactly the stored bytes.
      return copy(readFileSync(join(previous!.dir, key)));
    },
    seal() {
      for (const p of writer.finish()) sealed.set(p.seq, p);
    },
    locate(at) {
      if (typeof at.pack === 'string') return { pack: at.pack, offset: at.offset };
      const p = sealed.get(at.pack);
      if (p === undefined) throw new Error(`pack ${at.pack} of this compile is not sealed yet`);
      return { pack: p.sha256, offset: at.offset };
    },
    compact(objects, relocate) {
      const sizes = previous?.packSizes;
      if (!sizes || sizes.size === 0) return [];
      // Two passes over the views: live bytes per pack first, then only the sparse packs' objects.
      const live = new Map<string, number>();
      for (const o of objects) {
        if (o.at !== null && typeof o.at.pack === 'string') live.set(o.at.pack, (live.get(o.at.pack) ?? 0) + o.size);
      }
      const sparse = new Set<string>();
      for (const [sha, bytes] of live) {
        const size = sizes.get(sha);
        if (size !== undefined && bytes < size * SPARSE_PACK_SHARE) sparse.add(sha);
      }
      if (sparse.size === 0) return [];
      const moving: { key: string; size: number; at: { pack: string; offset: number } }[] = [];
      for (const o of objects) {
        if (o.at !== null && typeof o.at.pack === 'string' && sparse.has(o.at.pack)) moving.push({ key: o.key, size: o.size, at: { pack: o.at.pack, offset: o.at.offset } });
      }
      // In pack and offset order: each sparse pack is read front to back.
      moving.sort((a, b) => (a.at.pack < b.at.pack ? -1 : a.at.pack > b.at.pack ? 1 : a.at.offset - b.at.offset));
      let fd = -1;
      let openSha = '';
      try {
        for (const o of moving) {
          const sha = o.at.pack;
          if (sha !== openSha) {
            if (fd >= 0) closeSync(fd);
            fd = openSync(fileOfSha(sha), 'r');
            openSha = sha;
          }
          const bytes = Buffer.allocUnsafe(o.size);
          let done = 0;
          while (done < o.size) {
            const n = readSync(fd, bytes, done, o.size - done, o.at.offset + done);
            if (n === 0) throw new Error(`pack ${sha} ends before byte ${o.at.offset + o.size}`);
            done += n;
          }
          relocate(o.key, copy(bytes));
        }
      } finally {
        if (fd >= 0) closeSync(fd);
      }
      return [...sparse].sort();
    },
    finish() {
      for (const p of writer.finish()) sealed.set(p.seq, p);
      // Positions: previous packs in first-use order, then this compile's; a new pack whose bytes
      // equal an existing one (same SHA-256) is the same pack and gets the same position.
      const positions = new Map<string, number>();
      const packs: PackRef[] = [];
      const positionOfSha = (sha: string, size: number): number => {
        let n = positions.get(sha);
        if (n === undefined) {
          n = packs.length;
          positions.set(sha, n);
          packs.push({ sha256: sha, size });
        }
        return n;
      };
      return {
        packs,
        written: [...sealed.values()].sort((a, b) => a.seq - b.seq),
        position(at) {
          if (typeof at.pack === 'number') {
            const p = sealed.get(at.pack)!;
            return positionOfSha(p.sha256, p.size);
          }
          const size = previous?.packSizes.get(at.pack);
          if (size === undefined) throw new Error(`pack ${at.pack} is not one of the previous snapshot's packs`);
          return positionOfSha(at.pack, size);
        },
      };
    },
    abort() {
      writer.abort();
    },
  };
}
