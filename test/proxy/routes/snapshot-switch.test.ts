import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsSnapshotSource } from '../../../snapshots/store/fs.js';
import { switchCurrent } from '../../../snapshots/store/pointer.js';
import { createTestApp } from '../../helpers/server-app.js';
import { gatedSource } from '../../helpers/snapshot-fixture-sources.js';
import { writeFixtureSnapshot } from '../../helpers/snapshot-fixture.js';

// The pointer is re-read at most every 250 ms (proxy/serve-object/snapshot-pointer.ts).
const POINTER_SETTLE_MS = 300;

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'catalog-switch-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const summary = async (t: { request(p: string, i?: RequestInit): Promise<Response>; headers: Record<string, string> }) => {
  const res = await t.request('/v1/catalog/summary', { headers: t.headers });
  return { res, doc: JSON.parse(await res.text()) };
};

describe('snapshot pointer', () => {
  it('before any snapshot is published every catalog route is 503 unavailable', async () => {
    const t = await createTestApp({ snapshots: createFsSnapshotSource(root) });
    for (const path of ['/v1/catalog/summary', '/v1/cards/x', '/v1/sets/mtg/lea?limit=7', '/v1/u/alice']) {
      const res = await t.request(path, { headers: t.headers });
      expect(res.status, path).toBe(503);
      expect(JSON.parse(await res.text()).error).toBe('unavailable');
    }
    t.close();
  });

  it('a published snapshot, then a pointer switch, are picked up without a restart', async () => {
    const t = await createTestApp({ snapshots: createFsSnapshotSource(root) });
    expect((await summary(t)).res.status).toBe(503);
    const a = await writeFixtureSnapshot(root, { label: 'a' });
    await sleep(POINTER_SETTLE_MS);
    const first = await summary(t);
    expect(first.res.headers.get('x-snapshot-id')).toBe(a.id);
    expect(first.doc.data.label).toBe('a');

    const b = await writeFixtureSnapshot(root, { label: 'b' });
    await sleep(POINTER_SETTLE_MS);
    const second = await summary(t);
    expect(second.res.headers.get('x-snapshot-id')).toBe(b.id);
    expect(second.doc.data.label).toBe('b');
    expect(second.res.headers.get('etag')).not.toBe(first.res.headers.get('etag'));

    // Rollback is a pointer switch too.
    await switchCurrent(root, a.id);
    await sleep(POINTER_SETTLE_MS);
    expect((await summary(t)).doc.data.label).toBe('a');
    t.close();
  });

  it('a request in flight finishes on the snapshot it started on', async () => {
    const a = await writeFixtureSnapshot(root, { label: 'a' });
    const gated = gatedSource(createFsSnapshotSource(root));
    const t = await createTestApp({ snapshots: gated.source });

    const inFlight = t.request('/v1/sets/mtg/lea?limit=7&page=30', { headers: t.headers });
    await gated.waiting; // pinned to a, blocked on its first read
    const b = await writeFixtureSnapshot(root, { label: 'b' });
    await sleep(POINTER_SETTLE_MS);
    gated.release();

    const res = await inFlight;
    const doc = JSON.parse(await res.text());
    expect(res.headers.get('x-snapshot-id')).toBe(a.id);
    expect(doc.data.map((item: { label: string }) => item.label)).toEqual(Array(7).fill('a'));

    const next = await summary(t);
    expect(next.res.headers.get('x-snapshot-id')).toBe(b.id);
    expect(next.doc.data.label).toBe('b');
    t.close();
  });
});
