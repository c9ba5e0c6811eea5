/**
 * GET /v1/search through the real app (createApp): gate, rate limit, audit and error responder in
 * front of the route, and the snapshot resolved from a real `current` pointer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsSnapshotSource } from '../../snapshots/store/fs.js';
import { switchCurrent } from '../../snapshots/store/pointer.js';
import { createTestApp, type TestApp } from '../helpers/server-app.js';
import { SNAPSHOT_ID, buildIndex, q, standardEntries, type SearchBody } from './fixture.js';

let root: string;
let app: TestApp;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'search-app-'));
  buildIndex(join(root, SNAPSHOT_ID), standardEntries());
  await switchCurrent(root, SNAPSHOT_ID);
  app = await createTestApp({ snapshots: createFsSnapshotSource(root) });
});
afterAll(() => {
  app.close();
  rmSync(root, { recursive: true, force: true });
});

describe('GET /v1/search through createApp', () => {
  it('without a credential then 401 before search runs', async () => {
    const res = await app.request(`/v1/search?${q('bolt')}`);
    expect(res.status).toBe(401);
  });

  it('with a key then 200 from the current snapshot, audited under the route pattern', async () => {
    const res = await app.request(`/v1/search?${q('pokemon:char')}`, { headers: app.headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-snapshot-id')).toBe(SNAPSHOT_ID);
    const body = (await res.json()) as SearchBody;
    expect(body.data.map((d) => d.id)).toEqual(['pkm-charizard', 'pkm-charmander']);
    const row = app.state.sqlite.prepare('SELECT route, status, snapshot_id FROM audit_log ORDER BY id DESC LIMIT 1').get();
    expect(row).toEqual({ route: '/v1/search', status: 200, snapshot_id: SNAPSHOT_ID });
  });

  it('a bad q is the app error body with the request id', async () => {
    const res = await app.request(`/v1/search?${q('cards:bolt')}`, { headers: app.headers });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; message: string; requestId: string };
    expect(body.error).toBe('invalid_parameter');
    expect(body.message).toContain('q');
    expect(body.requestId).toBe(res.headers.get('x-request-id'));
  });
});
