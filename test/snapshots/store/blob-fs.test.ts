/**
 * The folder store (snapshots/store/blob-fs.ts): the BlobStore contract, plus what only a folder
 * shows: temporary files under hidden names while a put runs, and none left after a failed one.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createFolderBlobStore } from '../../../snapshots/store/blob-fs.js';
import { tempDir } from '../../helpers/cli.js';
import { blobStoreContract } from './blob-store.contract.js';

blobStoreContract('folder', async () => createFolderBlobStore(join(tempDir('blob-fs-'), 'root')));

describe('folder store', () => {
  it('writes under a hidden temporary name, then renames: mid-put the key is absent, the temp file unlisted', async () => {
    const root = tempDir('blob-fs-');
    const store = createFolderBlobStore(root);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const body = Readable.from(
      (async function* () {
        yield Buffer.alloc(1000, 1);
        await gate;
        yield Buffer.alloc(1000, 2);
      })(),
    );
    const put = store.put('packs/p.pack', body);
    await new Promise((r) => setTimeout(r, 50));
    expect(await store.head('packs/p.pack')).toBeNull();
    expect(readdirSync(join(root, 'packs')).every((n) => n.startsWith('.') && n.endsWith('.partial'))).toBe(true);
    for await (const item of store.list('')) throw new Error(`listed ${item.key} mid-put`);
    release();
    await put;
    expect(readdirSync(join(root, 'packs'))).toEqual(['p.pack']);
    expect(await store.head('packs/p.pack')).toEqual({ size: 2000 });
  });

  it('removes the temporary file of a failed put and does not list links or hidden files', async () => {
    const root = tempDir('blob-fs-');
    const store = createFolderBlobStore(root);
    const failing = new Readable({ read() { this.destroy(new Error('source broke')); } });
    await expect(store.put('x', failing)).rejects.toThrow('source broke');
    expect(readdirSync(root)).toEqual([]);
    writeFileSync(join(root, '.compile.lock'), '1');
    await store.put('a', Buffer.from('a'));
    const keys: string[] = [];
    for await (const item of store.list('')) keys.push(item.key);
    expect(keys).toEqual(['a']);
  });

  it('validates its root once, at construction', () => {
    expect(() => createFolderBlobStore('')).toThrow('root must be a folder path');
  });
});
