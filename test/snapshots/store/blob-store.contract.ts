/**
 * The contract of a BlobStore (snapshots/store/blob-store.ts), run on every store: the folder store
 * (blob-fs.test.ts) and the S3 store against a real Swift (blob-s3.test.ts). `fresh` gives an empty
 * store each test; a store that pages its listings must use pages of PAGE_SIZE keys, so that the
 * listing case spans several pages.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { BlobInfo, BlobStore } from '../../../snapshots/store/blob-store.js';
import { isCatalogError } from '../../../snapshots/errors.js';

export const PAGE_SIZE = 7;
/** The multipart part size a store under test should use (the smallest S3 allows). */
export const PART_SIZE = 5 * 1024 * 1024;
const MiB = 1024 * 1024;

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A body delivered in 64 KiB chunks, as a file stream would be. */
function streamOf(bytes: Buffer, failAfter?: number): Readable {
  let at = 0;
  return new Readable({
    read() {
      if (failAfter !== undefined && at >= failAfter) {
        this.destroy(new Error('source broke'));
        return;
      }
      const chunk = bytes.subarray(at, at + 64 * 1024);
      at += chunk.length;
      this.push(chunk.length > 0 ? chunk : null);
    },
  });
}

async function all(items: AsyncIterable<BlobInfo>): Promise<BlobInfo[]> {
  const out: BlobInfo[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function errorOf(promise: Promise<unknown> | (() => unknown)): Promise<{ code: string; message: string }> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (err) {
    if (!isCatalogError(err)) throw err;
    return { code: err.code, message: err.message };
  }
  throw new Error('expected a CatalogError');
}

export function blobStoreContract(name: string, fresh: () => Promise<BlobStore>): void {
  describe(`BlobStore contract: ${name}`, () => {
    const opened: BlobStore[] = [];
    const open = async () => {
      const store = await fresh();
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });

    it('round-trips a small Buffer, a 6 MiB Buffer and a multipart-sized stream, byte for byte', async () => {
      const store = await open();
      const small = Buffer.from('{"snapshotId":"20261124T000000Z-1a2b3c4d"}\n');
      const six = randomBytes(6 * MiB);
      const big = randomBytes(2 * PART_SIZE + 123_457); // three parts where the store goes multipart
      await store.put('small.json', small, { contentType: 'application/json' });
      await store.put('packs/six.pack', six);
      await store.put('packs/big.pack', streamOf(big));
      expect(await store.get('small.json')).toEqual(small);
      expect(sha((await store.get('packs/six.pack'))!)).toBe(sha(six));
      expect(sha((await store.get('packs/big.pack'))!)).toBe(sha(big));
      expect(await store.head('packs/big.pack')).toEqual({ size: big.length });
      await store.put('empty', Buffer.alloc(0));
      expect(await store.get('empty')).toEqual(Buffer.alloc(0));
    });

    it('reads byte ranges at the start, middle and end, across part boundaries, and refuses ranges outside', async () => {
      const store = await open();
      const body = randomBytes(PART_SIZE + 4096);
      await store.put('packs/r.pack', streamOf(body));
      expect(await store.getRange('packs/r.pack', 0, 100)).toEqual(body.subarray(0, 100));
      expect(await store.getRange('packs/r.pack', PART_SIZE - 50, 100)).toEqual(body.subarray(PART_SIZE - 50, PART_SIZE + 50));
      expect(await store.getRange('packs/r.pack', body.length - 10, 10)).toEqual(body.subarray(body.length - 10));
      expect(await store.getRange('packs/r.pack', body.length - 1, 1)).toEqual(body.subarray(body.length - 1));
      const past = await errorOf(store.getRange('packs/r.pack', body.length, 1));
      expect(past.code).toBe('range_not_satisfiable');
      expect(past.message).toBe(`packs/r.pack: bytes ${body.length}-${body.length} are not inside the object (${body.length} bytes)`);
      const across = await errorOf(store.getRange('packs/r.pack', body.length - 5, 10));
      expect(across.code).toBe('range_not_satisfiable');
      expect(across.message).toContain(`(${body.length} bytes)`);
      expect((await errorOf(store.getRange('packs/r.pack', -1, 10))).code).toBe('invalid_parameter');
      expect((await errorOf(store.getRange('packs/r.pack', 0, 0))).code).toBe('invalid_parameter');
      expect(await store.getRange('packs/missing.pack', 0, 10)).toBeNull();
    });

    it('answers null for a missing key (head, get) and for a key that is only a folder of others', async () => {
      const store = await open();
      expect(await store.head('nothing/here')).toBeNull();
      expect(await store.get('nothing/here')).toBeNull();
      await store.put('dir/child', Buffer.from('x'));
      expect(await store.head('dir')).toBeNull();
      expect(await store.get('dir')).toBeNull();
      expect(await store.head('dir/child')).toEqual({ size: 1 });
    });

    it('lists in key order over several pages, whole and by prefix (folder-like or partial)', async () => {
      const store = await open();
      const keys = [
        ...Array.from({ length: 17 }, (_, i) => `packs/${String(i).padStart(2, '0')}/p${i}.pack`),
        'packs-old', // '-' sorts before '/': a folder store must not list folder by folder
        'index/a.idx',
        'index/b.idx',
        'current',
        'packs/1x',
      ];
      await Promise.all(keys.map((k, i) => store.put(k, Buffer.alloc(i + 1, 1))));
      const listed = await all(store.list(''));
      expect(listed.map((l) => l.key)).toEqual([...keys].sort());
      expect(listed.length).toBeGreaterThan(3 * PAGE_SIZE);
      expect(listed.find((l) => l.key === 'index/b.idx')?.size).toBe(keys.indexOf('index/b.idx') + 1);
      expect((await all(store.list('index/'))).map((l) => l.key)).toEqual(['index/a.idx', 'index/b.idx']);
      expect((await all(store.list('packs/1'))).map((l) => l.key)).toEqual([
        ...Array.from({ length: 7 }, (_, i) => `packs/1${i}/p1${i}.pack`),
        'packs/1x',
      ]);
      expect((await all(store.list('packs'))).length).toBe(19);
      expect(await all(store.list('nothing/'))).toEqual([]);
    });

    it('deletes (a missing key too) and overwrites the pointer object in place', async () => {
      const store = await open();
      await store.put('packs/a.pack', Buffer.from('a'));
      await store.delete('packs/a.pack');
      await store.delete('packs/a.pack');
      expect(await store.head('packs/a.pack')).toBeNull();
      await store.put('current', Buffer.from('20261124T000000Z-1a2b3c4d\n'));
      await store.put('current', Buffer.from('20261125T000000Z-5e6f7a8b\n'));
      expect((await store.get('current'))!.toString()).toBe('20261125T000000Z-5e6f7a8b\n');
      expect(await all(store.list(''))).toEqual([{ key: 'current', size: 26 }]);
    });

    it('refuses keys with hostile shapes in every call before they become a path or an S3 key', async () => {
      const store = await open();
      const hostile = ['../escape', 'a/../../b', '/abs', 'a\\b', 'a//b', '', 'a/./b', '.hidden', 'a/..', 'nul\u0000', 'x'.repeat(1025)];
      for (const key of hostile) {
        for (const call of [
          () => store.put(key, Buffer.from('x')),
          () => store.get(key),
          () => store.getRange(key, 0, 1),
          () => store.head(key),
          () => store.delete(key),
        ]) {
          const e = await errorOf(call);
          expect(e.code, key).toBe('invalid_parameter');
          expect(e.message).toContain('not a valid object key');
        }
      }
      expect((await errorOf(() => all(store.list('../')))).code).toBe('invalid_parameter');
      expect(await all(store.list(''))).toEqual([]);
    });

    it('keeps concurrent puts of different keys apart', async () => {
      const store = await open();
      const bodies = Array.from({ length: 24 }, (_, i) => randomBytes(1000 + i * 997));
      await Promise.all(bodies.map((b, i) => store.put(`c/${i}`, i % 2 ? b : streamOf(b))));
      const back = await Promise.all(bodies.map((_, i) => store.get(`c/${i}`)));
      back.forEach((b, i) => expect(sha(b!)).toBe(sha(bodies[i])));
      expect((await all(store.list('c/'))).length).toBe(24);
    });

    it('shows nothing under a key whose streamed body failed part-way (small or multipart-sized)', async () => {
      const store = await open();
      await expect(store.put('packs/broken-small', streamOf(randomBytes(200_000), 128 * 1024))).rejects.toThrow('source broke');
      await expect(store.put('packs/broken-big', streamOf(randomBytes(3 * PART_SIZE), 2 * PART_SIZE))).rejects.toThrow('source broke');
      expect(await store.head('packs/broken-small')).toBeNull();
      expect(await store.head('packs/broken-big')).toBeNull();
      expect(await all(store.list(''))).toEqual([]);
    });
  });
}
