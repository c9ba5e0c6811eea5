/**
 * A compiler state file: a one-line JSON header, then frames of `uint32le length + v8.serialize(value)`.
 * Written in one pass through a temporary file (each frame is written as it is made, so the file is
 * never held whole in memory) and renamed into place; read back only whole: the header names the
 * frame count, the byte count and the SHA-1 of every frame byte, and a file that does not match all
 * three is not used. SHA-1, not SHA-256: the hash finds a damaged or cut file of the compiler's own
 * state, which no manifest lists or partner sees, and on these hosts it hashes about 1.8 GB/s
 * against 0.4 GB/s (a million-card catalog's state is 350 MB, read by every incremental compile).
 * The header is padded to HEADER_BYTES so it can be written last, in place. A reader may also take
 * the frames one at a time (`openFrameReader`, on another thread), using them only once the hash of
 * all of them matches.
 *
 * @example
 *   const w = createFrameWriter('catalog.state');
 *   w.add({ small: 'things' }); w.add(records);
 *   w.finish({ format: 'x/1', version });
 *   readFrames('catalog.state', (h) => h.format === 'x/1' && h.version === version)  // [{ small: … }, records] or null
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';

const HEADER_BYTES = 1024;

/** What the reader checks before any frame is used; the caller's own fields come with them. */
interface FrameCounts {
  frames: number;
  bytes: number;
  sha1: string;
}

export interface FrameWriter {
  add(value: unknown): void;
  /** Writes the header (the caller's fields and the counts) and renames the file into place. */
  finish(fields: Record<string, unknown>): void;
  /** Removes the temporary file. */
  abort(): void;
}

export function createFrameWriter(path: string): FrameWriter {
  const temporary = `${path}.tmp`;
  const fd = openSync(temporary, 'w');
  const sha = createHash('sha1');
  const length = Buffer.alloc(4);
  let position = HEADER_BYTES;
  let frames = 0;
  let open = true;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  return {
    add(value) {
      const frame = serialize(value);
      length.writeUInt32LE(frame.length);
      sha.update(length).update(frame);
      writeSync(fd, length, 0, 4, position);
      writeSync(fd, frame, 0, frame.length, position + 4);
      position += 4 + frame.length;
      frames++;
    },
    finish(fields) {
      const counts: FrameCounts = { frames, bytes: position - HEADER_BYTES, sha1: sha.digest('hex') };
      writeHeader(fd, { ...fields, ...counts });
      close();
      renameSync(temporary, path);
    },
    abort() {
      close();
      rmSync(temporary, { force: true });
    },
  };
}

/** A state file's header: the caller's fields and the counts the reader checks. */
export type FrameHeader = Record<string, unknown> & FrameCounts;

/**
 * The deserialized frames, or null when the file is missing, its header is not one `accept` takes, or
 * its bytes are not exactly the frames the header counts and hashes (never throws for those).
 */
export function readFrames(path: string, accept: (header: Record<string, unknown>) => boolean): unknown[] | null {
  const reader = openFrameReader(path, accept);
  if (reader === null) return null;
  try {
    const frames: unknown[] = [];
    for (let i = 0; i < reader.header.frames; i++) frames.push(reader.next());
    // Every byte accounted for and hashed before a frame is used.
    return reader.sha1() === reader.header.sha1 ? frames : null;
  } catch {
    return null;
  } finally {
    reader.close();
  }
}

/**
 * The frames one at a time (`next`, `header.frames` times), hashed as they are read: the caller uses
 * them only once `sha1()` (after the last) equals `header.sha1`. A thread can read a file this way for
 * another (read-ahead.ts): one frame in memory at a time, the file read once.
 */
export interface FrameReader {
  header: FrameHeader;
  /** The next frame's value; throws when the bytes are not a frame (a length past the counted bytes, a short read). */
  next(): unknown;
  /** After the last frame: the SHA-1 of every frame byte, or null when the file has bytes the header does not count. */
  sha1(): string | null;
  close(): void;
}

/** A reader of the file's frames, or null when it is missing or its header is not one `accept` takes. Never throws. */
export function openFrameReader(path: string, accept: (header: Record<string, unknown>) => boolean): FrameReader | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  let header: FrameHeader | null = null;
  try {
    header = headerAt(fd);
  } catch {
    header = null;
  }
  if (header === null || !accept(header)) {
    closeSync(fd);
    return null;
  }
  const end = HEADER_BYTES + header.bytes;
  const sha = createHash('sha1');
  const length = Buffer.alloc(4);
  let position = HEADER_BYTES;
  let open = true;
  return {
    header,
    next() {
      if (readSync(fd, length, 0, 4, position) !== 4) throw new Error(`${path}: cut short`);
      const n = length.readUInt32LE();
      // A length past the counted bytes is a damaged file, not a frame to allocate.
      if (position + 4 + n > end) throw new Error(`${path}: a frame past the counted bytes`);
      // Never from Buffer's shared pool: a frame's value may be a view of these bytes that a
      // thread hands over by transferring their ArrayBuffer (read-ahead.ts).
      const frame = Buffer.allocUnsafeSlow(n);
      if (readSync(fd, frame, 0, n, position + 4) !== n) throw new Error(`${path}: cut short`);
      sha.update(length).update(frame);
      position += 4 + n;
      return deserialize(frame);
    },
    sha1() {
      return position === end && readSync(fd, length, 0, 1, position) === 0 ? sha.digest('hex') : null;
    },
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

/** The header alone (no frame read), or null when the file is missing or has none. */
export function readFrameHeader(path: string): FrameHeader | null {
  const reader = openFrameReader(path, () => true);
  reader?.close();
  return reader?.header ?? null;
}

/**
 * Writes `fields` into the header of a whole file in place (the counts stay): for a copy of a state
 * file whose caller's fields changed but whose frames did not.
 */
export function restampHeader(path: string, fields: Record<string, unknown>): void {
  const fd = openSync(path, 'r+');
  try {
    const header = headerAt(fd);
    if (header === null) throw new Error(`${path}: no frame header to restamp`);
    writeHeader(fd, { ...header, ...fields, frames: header.frames, bytes: header.bytes, sha1: header.sha1 });
  } finally {
    closeSync(fd);
  }
}

/** The header line, padded to HEADER_BYTES, at the start of the file. */
function writeHeader(fd: number, header: Record<string, unknown>): void {
  const line = JSON.stringify(header);
  if (Buffer.byteLength(line) >= HEADER_BYTES) throw new Error(`framed file header of ${Buffer.byteLength(line)} bytes`);
  writeSync(fd, `${line.padEnd(HEADER_BYTES - 1)}\n`, 0, 'utf8');
}

function headerAt(fd: number): FrameHeader | null {
  const first = Buffer.alloc(HEADER_BYTES);
  if (readSync(fd, first, 0, HEADER_BYTES, 0) !== HEADER_BYTES || first[HEADER_BYTES - 1] !== 0x0a) return null;
  const header = JSON.parse(first.toString('utf8')) as FrameHeader;
  return Number.isSafeInteger(header.frames) && Number.isSafeInteger(header.bytes) && typeof header.sha1 === 'string' ? header : null;
}
