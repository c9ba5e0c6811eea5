import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { closeSync, constants, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alignedSharedBuffer, openUncached } from '../../../compiler/source/uncached-read.js';

/** Whether this file system opens files with O_DIRECT (tmpfs does not): what `direct` must then say. */
function directSupported(path: string): boolean {
  const flag = (constants as { O_DIRECT?: number }).O_DIRECT;
  if (flag === undefined) return false;
  try {
    closeSync(openSync(path, constants.O_RDONLY | flag));
    return true;
  } catch {
    return false;
  }
}

/** Every byte of `path` read in chunks of `chunk` into `into` (a view), concatenated. */
function readAll(path: string, into: Buffer): { bytes: Buffer; direct: boolean } {
  const file = openUncached(path);
  const parts: Buffer[] = [];
  try {
    for (let n; (n = file.read(into)) > 0; ) parts.push(Buffer.from(into.subarray(0, n)));
    return { bytes: Buffer.concat(parts), direct: file.direct };
  } finally {
    file.close();
  }
}

describe('uncached read', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'catalog-uncached-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads every byte of a file whose size is no multiple of the block, into an aligned buffer', () => {
    const path = join(dir, 'prices.ndjson');
    const content = randomBytes(3 * 65536 + 1234);
    writeFileSync(path, content);
    const slots = alignedSharedBuffer(4 * 65536);
    const { bytes, direct } = readAll(path, Buffer.from(slots, 65536, 65536));
    expect(bytes.equals(content)).toBe(true);
    // Where the file system has O_DIRECT, the aligned reads keep it to the end (the short last one included).
    expect(direct).toBe(directSupported(path));
  });

  it('falls back to the page cache for a buffer O_DIRECT cannot take, with the same bytes', () => {
    const path = join(dir, 'prices.ndjson');
    const content = randomBytes(200_000);
    writeFileSync(path, content);
    const slots = alignedSharedBuffer(65536 * 2);
    // 100 bytes past the page boundary and 3,000 bytes long: neither offset nor length aligned.
    const { bytes, direct } = readAll(path, Buffer.from(slots, 100, 3000));
    expect(bytes.equals(content)).toBe(true);
    expect(direct).toBe(false);
  });

  it('reads an empty file as empty, and fails on a missing one with the usual error', () => {
    const path = join(dir, 'empty.ndjson');
    writeFileSync(path, '');
    expect(readAll(path, Buffer.from(alignedSharedBuffer(65536))).bytes.length).toBe(0);
    expect(() => openUncached(join(dir, 'missing.ndjson'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it('asks for whole 64 KiB pages', () => {
    expect(() => alignedSharedBuffer(1000)).toThrow(/64 KiB/);
    expect(alignedSharedBuffer(3 * 65536).byteLength).toBe(3 * 65536);
    expect(alignedSharedBuffer(65536)).toBeInstanceOf(SharedArrayBuffer);
  });
});
