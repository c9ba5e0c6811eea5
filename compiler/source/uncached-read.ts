/**
 * A large file read once from start to end without going through the page cache (O_DIRECT), for
 * the price file an incremental compile reads whole to learn which lines changed. Read the usual
 * way, the kernel copies every page of it out of the page cache after filling the cache from the
 * disk: for the 2.76 GB price file of a million cards that was 3.6 s of system time alone and 7-9 s
 * under a compile where four threads share two cores, the largest single cost of the read-ahead
 * thread; read direct, the disk writes into the buffer and the same read takes 0.06-0.15 s of system
 * time (docs/benchmarks.md, "Incremental compile: the price file read past the page cache").
 *
 * O_DIRECT asks for a buffer, offset and length aligned to the device's block size: the buffers come
 * from `alignedSharedBuffer` (a shared WebAssembly memory, which V8 maps at a page boundary) and the
 * reads are whole multiples of 4 KiB at offsets that stay so. Where the flag is refused (a file
 * system without it, such as tmpfs; a platform without the flag; a read that is not aligned), the
 * reader opens the file again the usual way and carries on from the same offset: the bytes read are
 * the same either way, only their cost differs.
 *
 * @example
 *   const slots = alignedSharedBuffer(3 * CHUNK);
 *   const file = openUncached(path);
 *   for (let n; (n = file.read(Buffer.from(slots, 0, CHUNK))) > 0; ) use(n);
 *   file.close();
 */
import { closeSync, constants, openSync, readSync } from 'node:fs';

/** Bytes of a WebAssembly page: the unit `alignedSharedBuffer` allocates in. */
const WASM_PAGE = 64 * 1024;
/** The alignment O_DIRECT may ask of buffers, offsets and lengths on common devices. */
export const DIRECT_ALIGN = 4096;

/**
 * A SharedArrayBuffer of exactly `bytes` (a multiple of 64 KiB) that starts at a page boundary:
 * `new SharedArrayBuffer` comes from malloc, which puts a large block 16 bytes past one.
 */
export function alignedSharedBuffer(bytes: number): SharedArrayBuffer {
  if (bytes <= 0 || bytes % WASM_PAGE !== 0) throw new Error(`uncached read: ${bytes} bytes is not a whole number of 64 KiB pages`);
  const pages = bytes / WASM_PAGE;
  return new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true }).buffer as unknown as SharedArrayBuffer;
}

export interface UncachedFile {
  /** Reads into `into` from where the last read ended; 0 at the end of the file. */
  read(into: Uint8Array): number;
  /** Whether reads still bypass the page cache (false once the reader fell back). */
  readonly direct: boolean;
  close(): void;
}

/** Opens `path` for one read from start to end, past the page cache where the system allows it. */
export function openUncached(path: string): UncachedFile {
  // Opened the usual way first: a missing or unreadable file fails here with its usual error.
  let fd = openSync(path, 'r');
  let direct = false;
  const flag = (constants as { O_DIRECT?: number }).O_DIRECT;
  if (flag !== undefined) {
    try {
      const directFd = openSync(path, constants.O_RDONLY | flag);
      closeSync(fd);
      fd = directFd;
      direct = true;
    } catch {
      // The file system refuses the flag: read through the page cache.
    }
  }
  let position = 0;
  let open = true;
  const fallBack = () => {
    const buffered = openSync(path, 'r');
    closeSync(fd);
    fd = buffered;
    direct = false;
  };
  return {
    read(into) {
      if (!open) return 0;
      // The offset is left to the kernel: it stays aligned until the short read at the end.
      if (direct && (into.length % DIRECT_ALIGN !== 0 || into.byteOffset % DIRECT_ALIGN !== 0)) fallBack();
      let n: number;
      try {
        n = readSync(fd, into, 0, into.length, position);
      } catch (err) {
        if (!direct || (err as NodeJS.ErrnoException).code !== 'EINVAL') throw err;
        // The device asks for more alignment than this buffer has: the same bytes, the usual way.
        fallBack();
        n = readSync(fd, into, 0, into.length, position);
      }
      position += n;
      return n;
    },
    get direct() {
      return direct;
    },
    close() {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}
