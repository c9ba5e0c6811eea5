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
import { SNAPSHOT_ID, buildIndex, card, q, standardEntries, type SearchBody } from './fixture.js';

let root: string;
let app: TestApp;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'search-app-'));
  buildIndex(join(root, SNAPSHOT_ID), [...standardEntries(), card('mtg-kaito', 'mtg', 'Kaito: Blackwater', 5)]);
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
    const res = await app.request(`/v1/search?${q('mtg:')}`, { headers: app.headers });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; message: string; requestId: string };
    expect(body.error).toBe('invalid_parameter');
    expect(body.message).toContain('q');
    expect(body.requestId).toBe(res.headers.get('x-request-id'));
  });
});

describe('GET /v1/search with a colon in q (issue 21, item 3)', () => {
  const get = async (text: string) => {
    const res = await app.request(`/v1/search?${q(text)}`, { headers: app.headers });
    return { res, body: (await res.json()) as SearchBody & { error?: string; message?: string } };
  };
  const notAPrefix = (word: string) => `"${word}" is not a search prefix (mtg:, pokemon:, lorcana:, onepiece:, figures:), so q was searched as text`;

  it('when q starts with a word and a colon that is no prefix then it is searched as text, with a warning', async () => {
    const kaito = await get('Kaito: Blackwater');
    expect(kaito.res.status).toBe(200);
    expect(kaito.body.data.map((d) => d.id)).toEqual(['mtg-kaito']);
    expect(kaito.body.warnings).toEqual([notAPrefix('Kaito:')]);
    for (const [text, word] of [['https://x', 'https:'], ['name:bolt', 'name:'], ['mgt:bolt', 'mgt:'], ['toString:x', 'toString:']]) {
      const { res, body } = await get(text);
      expect(res.status, text).toBe(200);
      expect(body.warnings, text).toEqual([notAPrefix(word)]);
    }
    expect((await get('name:bolt')).body.data.map((d) => d.id)).toEqual([]);
    expect((await get('bolt:')).body.data.map((d) => d.id)).toContain('mtg-bolt');
  });

  it('when q starts with a documented prefix then it still selects the kind, without a warning', async () => {
    const { res, body } = await get('MTG: kaito');
    expect(res.status).toBe(200);
    expect(body.data.map((d) => d.id)).toEqual(['mtg-kaito']);
    expect(body.warnings).toEqual([]);
    expect((await get('pokemon: kaito')).body.data).toEqual([]);
  });

  it('when q is a prefix with no text then 400 like an empty q, and a prefix before symbols only is 200 empty like the symbols alone', async () => {
    const empty = await get('');
    expect(empty.res.status).toBe(400);
    expect(empty.body.message).toBe('q must not be empty');
    for (const text of ['mtg:', 'figures:  ', ' Lorcana:']) {
      const { res, body } = await get(text);
      expect(res.status, text).toBe(400);
      expect(body).toMatchObject({ error: 'invalid_parameter', message: `q after the prefix "${text.trim()}" must not be empty` });
    }
    for (const text of ['***', 'mtg: ***']) {
      const { res, body } = await get(text);
      expect(res.status, text).toBe(200);
      expect(body.data, text).toEqual([]);
    }
  });
});
