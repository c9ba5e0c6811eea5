import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../snapshots/codec.js';
import { createFsSnapshotSource, createFsSnapshotWriter } from '../../../snapshots/store/fs.js';
import { switchCurrent } from '../../../snapshots/store/pointer.js';
import { createObjectCache } from '../../../proxy/serve-object/object-cache.js';
import { createObjectLoader, type ServedObject } from '../../../proxy/serve-object/object-loader.js';

const SNAPSHOT_ID = '20261120T020000Z-cace0001';
const OBJECT_COUNT = 200;
const OBJECT_BYTES = 2_000;

let root: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'catalog-cache-'));
  const writer = createFsSnapshotWriter(root, SNAPSHOT_ID);
  for (let i = 0; i < OBJECT_COUNT; i++) await writer.put(`v1/figures/f-${i}.json.gz`, gzipSync(randomBytes(OBJECT_BYTES)));
  await switchCurrent(root, SNAPSHOT_ID);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('object cache', () => {
  it('stays within its byte budget when more bytes than the cap pass through it', async () => {
    const cap = 50_000;
    const loader = createObjectLoader(createObjectCache<ServedObject>({ maxBytes: cap }));
    const reader = (await createFsSnapshotSource(root).current())!;
    for (let i = 0; i < OBJECT_COUNT; i++) {
      const obj = await loader.load(reader, `v1/figures/f-${i}.json.gz`);
      expect(obj!.sha256).toBe(sha256Hex(obj!.gzip));
      expect(loader.cache.bytes).toBeLessThanOrEqual(cap);
    }
    // 400 KB went through a 50 KB cache: most entries were evicted, the newest are kept.
    expect(loader.cache.entries).toBeGreaterThan(10);
    expect(loader.cache.entries).toBeLessThan(25);
    expect(loader.cache.get(`${SNAPSHOT_ID}\u0000v1/figures/f-${OBJECT_COUNT - 1}.json.gz`)).toBeDefined();
    expect(loader.cache.get(`${SNAPSHOT_ID}\u0000v1/figures/f-0.json.gz`)).toBeUndefined();
  });

  it('evicts the least recently used entry first', () => {
    // Each entry costs 300 bytes + key + bookkeeping (129 here), so exactly 8 fit in the budget.
    const cache = createObjectCache<string>({ maxBytes: 8 * 429 });
    for (const k of 'abcdefgh') cache.set(k, k, 300);
    expect(cache.entries).toBe(8);
    cache.get('a');
    cache.set('i', 'i', 300);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('a');
    expect(cache.get('i')).toBe('i');
    expect(cache.bytes).toBeLessThanOrEqual(8 * 429);
  });

  it('does not keep an object bigger than an eighth of the budget', () => {
    const cache = createObjectCache<string>({ maxBytes: 8_000 });
    cache.set('big', 'big', 2_000);
    expect(cache.get('big')).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  it('rejects a budget that is not a whole number of bytes, naming it', () => {
    expect(() => createObjectCache({ maxBytes: -1 })).toThrow(/cacheBytes/);
    expect(() => createObjectCache({ maxBytes: 1.5 })).toThrow(/cacheBytes/);
  });

  it('a cache of 0 bytes keeps nothing and still serves', async () => {
    const loader = createObjectLoader(createObjectCache<ServedObject>({ maxBytes: 0 }));
    const reader = (await createFsSnapshotSource(root).current())!;
    expect(await loader.load(reader, 'v1/figures/f-1.json.gz')).not.toBeNull();
    expect(loader.cache.entries).toBe(0);
  });
});
