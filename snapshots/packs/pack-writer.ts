/**
 * Pack files (issue 17): stored objects (enveloped gzip JSON, bytes unchanged) appended one after
 * another into large immutable files named by the SHA-256 of their own bytes, so a pack shared by
 * many snapshots is stored once and a mirror fetches only the packs it lacks. An object is found by
 * (pack, offset, length) in the snapshot's index (object-index.ts); a pack has no header and no
 * framing of its own, because the index already says where every object starts and ends.
 *
 * A pack is written under a temporary name and renamed to `<sha256>.pack` only once it is complete
 * and flushed to disk: a reader never sees a partial pack under a real name, and a killed compile
 * leaves only `.tmp-*` files that the next prune removes.
 *
 * @example
 *   const packs = createPackWriter({ dir: 'data/snapshots/packs' });
 *   const at = packs.append(gzipBytes);          // { pack: 0, offset: 0, length: 1190 }
 *   const sealed = packs.finish();               // [{ seq: 0, sha256: '9f…', size: 1190, file: '…/9f….pack' }]
 */
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { CatalogError } from '../errors.js';
import { makeDirsSync } from '../store/make-dirs.js';

export const PACK_SUFFIX = '.pack';

/** Where an appended object lives: `pack` is the writer's sequence number until the pack is sealed. */
export interface PackedObject {
  pack: number;
  offset: number;
  length: number;
}

export interface SealedPack {
  /** The sequence number `append` returned for the objects of this pack. */
  seq: number;
  sha256: string;
  size: number;
  file: string;
}

export interface PackWriter {
  append(bytes: Buffer): PackedObject;
  /** Seals the open pack and returns every pack this writer made, in sequence order. */
  finish(): SealedPack[];
  /** Removes the unsealed pack (sealed ones are content-addressed and harmless; prune collects them). */
  abort(): void;
}

export interface PackWriterOptions {
  dir: string;
  /** A pack is sealed once it reaches this size (default 256 MiB: tens of packs at a million cards). */
  targetBytes?: number;
  /**
   * Appends are copied into one buffer of this size (default 1 MiB) and written when it is full, not
   * one system call per object. The caller's bytes are not kept: it may re-use them at once.
   */
  bufferBytes?: number;
}

export const DEFAULT_PACK_BYTES = 256 * 2 ** 20;
const DEFAULT_BUFFER_BYTES = 2 ** 20;

interface OpenPack {
  seq: number;
  tmp: string;
  fd: number;
  size: number;
  hash: Hash;
  /** Bytes appended and not written yet, at the start of the writer's buffer. */
  buffered: number;
}

export function packFileName(sha256: string): string {
  return `${sha256}${PACK_SUFFIX}`;
}

export function createPackWriter(options: PackWriterOptions): PackWriter {
  const targetBytes = options.targetBytes ?? DEFAULT_PACK_BYTES;
  const bufferBytes = options.bufferBytes ?? DEFAULT_BUFFER_BYTES;
  if (!Number.isInteger(targetBytes) || targetBytes < 1) throw new CatalogError('usage', `targetBytes must be a positive integer, not ${targetBytes}`);
  if (!Number.isInteger(bufferBytes) || bufferBytes < 1) throw new CatalogError('usage', `bufferBytes must be a positive integer, not ${bufferBytes}`);
  makeDirsSync(options.dir);
  const sealed: SealedPack[] = [];
  let open: OpenPack | null = null;
  let nextSeq = 0;

  const start = (): OpenPack => {
    const tmp = join(options.dir, `.tmp-${process.pid}-${randomBytes(6).toString('hex')}${PACK_SUFFIX}`);
    return { seq: nextSeq++, tmp, fd: openSync(tmp, 'wx', 0o644), size: 0, hash: createHash('sha256'), buffered: 0 };
  };
  // One buffer for the writer's life, never a new one per write: every buffer allocated counts
  // towards V8's external memory, and each 64 MB of it starts a marking of the whole heap (at a
  // million cards 6.5 GB of objects pass through here, beside the loaded catalog).
  const buffer = Buffer.allocUnsafeSlow(bufferBytes);
  const writeAll = (fd: number, data: Uint8Array, length: number) => {
    let done = 0;
    while (done < length) done += writeSync(fd, data, done, length - done);
  };
  const flush = (p: OpenPack) => {
    if (p.buffered === 0) return;
    writeAll(p.fd, buffer, p.buffered);
    p.buffered = 0;
  };
  const seal = (p: OpenPack) => {
    flush(p);
    fsyncSync(p.fd);
    closeSync(p.fd);
    const sha256 = p.hash.digest('hex');
    const file = join(options.dir, packFileName(sha256));
    // Same bytes, same name: renaming over an existing pack of the same content is harmless.
    renameSync(p.tmp, file);
    sealed.push({ seq: p.seq, sha256, size: p.size, file });
  };

  return {
    append(bytes) {
      if (bytes.length === 0) throw new CatalogError('internal', 'an empty object cannot be packed');
      if (open !== null && open.size > 0 && open.size + bytes.length > targetBytes) {
        seal(open);
        open = null;
      }
      const p = (open ??= start());
      const at: PackedObject = { pack: p.seq, offset: p.size, length: bytes.length };
      p.hash.update(bytes);
      p.size += bytes.length;
      if (p.buffered + bytes.length > bufferBytes) flush(p);
      if (bytes.length >= bufferBytes) writeAll(p.fd, bytes, bytes.length);
      else p.buffered += bytes.copy(buffer, p.buffered);
      return at;
    },
    finish() {
      if (open !== null) {
        seal(open);
        open = null;
      }
      return [...sealed];
    },
    abort() {
      if (open === null) return;
      try {
        closeSync(open.fd);
      } finally {
        rmSync(open.tmp, { force: true });
        open = null;
      }
    },
  };
}
