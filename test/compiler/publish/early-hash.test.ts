/**
 * A snapshot file hashed as soon as it is final (compiler/publish/early-hash.ts): the early digest is
 * taken only when the file is still the one hashed; a file written, replaced or removed after the
 * hash started is hashed again (or reported unreadable), so a manifest never records a digest of
 * bytes that are not there.
 */
import { appendFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHash, takeHash } from '../../../compiler/publish/early-hash.js';
import { tempDir } from '../../helpers/auth-fixtures.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function dir(): string {
  const t = tempDir('catalog-early-hash-');
  cleanup = t.cleanup;
  return t.dir;
}

const digest = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
// More than one read (hashFile reads 1 MB at a time), so a change can land while it streams.
const content = Buffer.alloc(3 * (1 << 20) + 17, 'a');

describe('early hashes of snapshot files', () => {
  it('gives the digest and size of a file nothing wrote since', async () => {
    const path = join(dir(), 'objects.sqlite');
    writeFileSync(path, content);
    const early = startHash(path);
    expect(await takeHash(early)).toEqual({ sha256: digest(content), size: content.length });
  });

  it('hashes again a file written to after the hash started', async () => {
    const path = join(dir(), 'objects.sqlite');
    writeFileSync(path, content);
    const early = startHash(path);
    await early.hashed;
    appendFileSync(path, 'more');
    const now = Buffer.concat([content, Buffer.from('more')]);
    expect(await takeHash(early)).toEqual({ sha256: digest(now), size: now.length });
  });

  it('hashes again a file replaced by another of the same size', async () => {
    const d = dir();
    const path = join(d, 'search.sqlite');
    writeFileSync(path, content);
    const early = startHash(path);
    await early.hashed;
    const other = Buffer.alloc(content.length, 'b');
    writeFileSync(join(d, 'next'), other);
    renameSync(join(d, 'next'), path);
    expect(await takeHash(early)).toEqual({ sha256: digest(other), size: other.length });
  });

  it('answers null for a file removed after the hash started, and for one that never was', async () => {
    const d = dir();
    const path = join(d, 'changes.ndjson');
    writeFileSync(path, 'x\n');
    const early = startHash(path);
    await early.hashed;
    rmSync(path);
    expect(await takeHash(early)).toBeNull();
    expect(await takeHash(startHash(join(d, 'missing')))).toBeNull();
  });
});
