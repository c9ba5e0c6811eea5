/**
 * Where the compile puts stored objects (issue 17): new and changed objects are appended to new
 * packs in the root's `packs/` folder; an unchanged object keeps the pack and offset it has in the
 * previous snapshot, so nothing is read, written or linked for it (its row is already in the copy of
 * the previous index, object-table.ts).
 *
 * A location returned here is `{ pack, offset }` with `pack` the pack writer's sequence number: the
 * object table turns it into the pack's number in the index once the pack is sealed.
 *
 * Two cases copy bytes instead of referencing them:
 *   - a previous snapshot of the per-URL layout (before packs): each unchanged object is copied into
 *     the new pack once (`copyFile`), which is how a root moves to packs without a full re-render;
 *   - a sparse pack: when less than half of a previous pack's bytes are still referenced, those
 *     objects are copied into the new pack (`copyFromPack`, object-index-phase.ts), so the old pack is
 *     collected once the older snapshots that use it are pruned, and space does not leak into packs
 *     that are mostly garbage.
 *
 * @example
 *   const out = createPackOutput(join(root, 'packs'));
 *   const at = out.write(gzipBytes);           // { pack: 0, offset: 0 }
 *   out.seal()                                 // [{ seq: 0, sha256: '9f…', size: 1190, file }]: every pack sealed so far
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { createPackWriter, packFileName, type SealedPack } from '../../snapshots/packs/pack-writer.js';

/** Where this compile wrote an object: the pack writer's sequence number and the offset in that pack. */
export interface ObjectLoc {
  pack: number;
  offset: number;
}

export interface PackOutput {
  /** Appends the stored bytes of a new or changed object (copied: the caller may re-use `bytes` at once). */
  write(bytes: Buffer): ObjectLoc;
  /** Appends the bytes of a per-URL file (an unchanged object of a per-URL previous snapshot). */
  copyFile(path: string): ObjectLoc;
  /**
   * Appends objects read from an existing pack of the root (`sha256`), in the order given (give them
   * by offset, so the pack is read front to back); returns their new locations in the same order.
   */
  copyFromPack(sha256: string, objects: readonly { offset: number; length: number }[]): ObjectLoc[];
  /** Seals the open pack and returns every pack sealed so far, in sequence order. */
  seal(): SealedPack[];
  /** Removes the unsealed pack (sealed ones are content-addressed; prune collects unreferenced ones). */
  abort(): void;
}

/** A previous pack is rewritten when less than this share of its bytes is still referenced. */
export const SPARSE_PACK_SHARE = 0.5;

export function createPackOutput(packsDir: string, options: { targetBytes?: number } = {}): PackOutput {
  const writer = createPackWriter({ dir: packsDir, targetBytes: options.targetBytes });
  const write = (bytes: Buffer): ObjectLoc => {
    const at = writer.append(bytes);
    return { pack: at.pack, offset: at.offset };
  };
  return {
    write,
    copyFile: (path) => write(readFileSync(path)),
    copyFromPack(sha256, objects) {
      const fd = openSync(join(packsDir, packFileName(sha256)), 'r');
      try {
        return objects.map((o) => {
          const bytes = Buffer.allocUnsafe(o.length);
          let done = 0;
          while (done < o.length) {
            const n = readSync(fd, bytes, done, o.length - done, o.offset + done);
            if (n === 0) throw new Error(`pack ${sha256} ends before byte ${o.offset + o.length}`);
            done += n;
          }
          return write(bytes);
        });
      } finally {
        closeSync(fd);
      }
    },
    seal: () => writer.finish(),
    abort() {
      writer.abort();
    },
  };
}
