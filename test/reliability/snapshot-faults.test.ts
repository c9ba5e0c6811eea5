/**
 * Snapshot faults (issue 6): a truncated or corrupted object is never sent as if it were whole. Found
 * before the headers (every object is checked when read from the store): a JSON 500 whose log line
 * names the key. Found while streaming: the connection is aborted, so the client sees an incomplete
 * response, not a clean end. `catalog verify` names the same file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProxyEnv } from '../../proxy/env.js';
import { createObjectCache } from '../../proxy/serve-object/object-cache.js';
import { createObjectLoader, type ServedObject } from '../../proxy/serve-object/object-loader.js';
import { respondObject } from '../../proxy/serve-object/respond-object.js';
import { cardKey, listPageKey, summaryKey } from '../../snapshots/keys.js';
import { auditRows, bearer } from '../helpers/auth-fixtures.js';
import { runCli } from '../helpers/cli.js';
import { fixtureWorld, type FixtureWorld } from '../helpers/fixture-app.js';
import { FIXTURE_CARD_IDS, FIXTURE_SET } from '../helpers/snapshot-fixture.js';

/** The error lines only: every answered request also logs one info line (docs/operations.md). */
const errorLines = (w: { logs: { level: string; message: string; fields: Record<string, unknown> }[] }) => w.logs.filter((l) => l.level === 'error');

let w: FixtureWorld;
let server: Server | null = null;
afterEach(() => {
  server?.close();
  server = null;
  w?.close();
});

type Damage = (bytes: Buffer) => Buffer;
const truncate: Damage = (b) => b.subarray(0, Math.floor(b.length / 2));
const dropTrailer: Damage = (b) => b.subarray(0, b.length - 4); // the ISIZE field only
const flipMiddleByte: Damage = (b) => {
  const copy = Buffer.from(b);
  copy[Math.floor(copy.length / 2)] ^= 0xff;
  return copy;
};
const notGzip: Damage = () => Buffer.from('{"not":"gzip"}');

function damage(world: FixtureWorld, key: string, how: Damage): void {
  const path = join(world.fixture.dir, key);
  writeFileSync(path, how(readFileSync(path)));
}

describe('a damaged object, found before the headers', () => {
  const cases: [string, Damage][] = [['truncated to half', truncate], ['missing its trailer', dropTrailer], ['with a flipped byte', flipMiddleByte], ['not gzip at all', notGzip]];
  for (const [what, how] of cases) {
    it(`when a card object is ${what} then gzip and identity clients get a JSON 500 and the log names the key`, async () => {
      w = await fixtureWorld();
      const key = cardKey(FIXTURE_CARD_IDS[0], '30d');
      damage(w, key, how);
      const app = w.app();
      for (const encoding of ['gzip', 'identity']) {
        const res = await app.request(`/v1/cards/${FIXTURE_CARD_IDS[0]}`, { headers: { ...bearer(w.globex.key), 'Accept-Encoding': encoding } });
        expect(res.status).toBe(500);
        expect(res.headers.get('Content-Encoding')).toBeNull();
        expect(await res.json()).toEqual({ error: 'internal', message: expect.any(String), requestId: res.headers.get('X-Request-Id') });
      }
      expect(errorLines(w)).toHaveLength(2);
      for (const line of errorLines(w)) expect(line.fields).toMatchObject({ code: 'corrupt_object', key, snapshotId: w.fixture.id, route: '/v1/cards/:id' });
      // The refused answers are audited like any other (status 500).
      expect(auditRows(w.state).map((r) => r.status)).toEqual([500, 500]);
      // Other objects of the snapshot are still served.
      expect((await app.request(`/v1/cards/${FIXTURE_CARD_IDS[1]}`, { headers: bearer(w.globex.key) })).status).toBe(200);
    });
  }

  it('when a stored list page is damaged then the default page and a re-sliced page are both a 500 naming it', async () => {
    w = await fixtureWorld();
    const key = listPageKey({ kind: 'set', game: FIXTURE_SET.game, code: FIXTURE_SET.code }, 1);
    damage(w, key, truncate);
    const app = w.app();
    for (const query of ['', '?limit=7&page=2']) {
      const res = await app.request(`/v1/sets/${FIXTURE_SET.game}/${FIXTURE_SET.code}${query}`, { headers: bearer(w.globex.key) });
      expect(res.status).toBe(500);
    }
    expect(errorLines(w).map((l) => l.fields.key)).toEqual([key, key]);
  });

  it('when an object is damaged then catalog verify fails with exit 65 and names it', async () => {
    w = await fixtureWorld();
    damage(w, summaryKey(), dropTrailer);
    const r = await runCli(['verify', w.snapshotRoot]);
    expect(r.code).toBe(65);
    expect(r.stderr).toContain(summaryKey());
  });
});

describe('a damaged object, found while streaming', () => {
  /**
   * The loader checks what it reads from the store, so a damaged stream can only come from bytes
   * that skipped that check; this serves one directly through respondObject on a real socket to show
   * what the adapter does with a gunzip error after the headers went out.
   */
  async function serveBytes(gzip: Buffer): Promise<string> {
    const loader = createObjectLoader(createObjectCache<ServedObject>());
    const obj = loader.remember('test\u0000big', gzip);
    const app = new Hono<ProxyEnv>();
    app.get('/big', (c) => respondObject(c, loader, obj));
    server = createServer(getRequestListener(app.fetch));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/big`;
  }

  function fetchRaw(url: string): Promise<{ status: number; bytes: number; complete: boolean; error: string | null }> {
    return new Promise((resolve) => {
      get(url, (res) => {
        let bytes = 0;
        let error: string | null = null;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('error', (err) => (error = err.message));
        res.on('close', () => resolve({ status: res.statusCode!, bytes, complete: res.complete, error }));
      }).on('error', (err) => resolve({ status: 0, bytes: 0, complete: false, error: err.message }));
    });
  }

  it('when a large object fails to decode mid-stream then the connection is aborted, never ended cleanly', async () => {
    // ~1 MB of JSON that compresses to well over the 16 KiB streaming threshold.
    const json = Buffer.from(JSON.stringify({ data: Array.from({ length: 20_000 }, (_, i) => ({ i, noise: randomBytes(16).toString('hex') })) }));
    const whole = gzipSync(json);
    const url = await serveBytes(truncate(whole));
    const got = await fetchRaw(url);
    expect(got.status).toBe(200); // the headers were already sent when the fault appeared
    expect(got.complete).toBe(false);
    expect(got.bytes).toBeLessThan(json.length);
  });

  it('when the same object is intact then it streams to a clean, complete end (the test above can tell the difference)', async () => {
    const json = Buffer.from(JSON.stringify({ data: Array.from({ length: 20_000 }, (_, i) => ({ i, noise: randomBytes(16).toString('hex') })) }));
    const url = await serveBytes(gzipSync(json));
    const got = await fetchRaw(url);
    expect(got).toEqual({ status: 200, bytes: json.length, complete: true, error: null });
  });
});
