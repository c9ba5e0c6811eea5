/**
 * Graceful stop (issue 6): SIGTERM to `catalog serve --workers 2` while 8 connections keep sending
 * and one client holds a large streamed answer open by not reading it. The server stops accepting,
 * waits for that answer, which arrives whole once the client reads again, commits every audit row,
 * and exits 0; no answer whose headers were sent is cut.
 */
import { get } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyStore } from '../../proxy/keys/store.js';
import { openStateDb } from '../../proxy/state/open.js';
import { encodeDocument } from '../../snapshots/codec.js';
import { envelope } from '../../snapshots/envelope.js';
import { cardKey } from '../../snapshots/keys.js';
import { createFsSnapshotWriter } from '../../snapshots/store/fs.js';
import { auditRows, tempDir } from '../helpers/auth-fixtures.js';
import { startLoad } from '../helpers/load.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { FIXTURE_AS_OF, FIXTURE_CARD_IDS, writeFixtureSnapshot } from '../helpers/snapshot-fixture.js';

let dir: string;
let cleanup: () => void;
let key: string;
let bigBytes: number;
let server: ServerProcess | null = null;

beforeAll(async () => {
  const tmp = tempDir('catalog-stop-');
  dir = tmp.dir;
  cleanup = tmp.cleanup;
  const fixture = await writeFixtureSnapshot(join(dir, 'snapshots'));
  // A document far larger than the socket buffers (~10 MB decoded), so its answer stays in flight
  // for as long as the client does not read.
  const items = Array.from({ length: 200_000 }, (_, i) => ({ i, name: `item-${i}`, noise: (i * 2654435761 % 65536).toString(16) }));
  const doc = encodeDocument(envelope('card', FIXTURE_AS_OF, { id: 'big-card', items }, null));
  await createFsSnapshotWriter(join(dir, 'snapshots'), fixture.id).put(cardKey('big-card', '30d'), doc);
  bigBytes = Buffer.byteLength(JSON.stringify(envelope('card', FIXTURE_AS_OF, { id: 'big-card', items }, null)));
  const state = openStateDb(join(dir, 'state.sqlite'));
  key = createKeyStore(state).mint({ tenant: 'acme', tier: 'enterprise' }).key;
  state.close();
});
afterAll(() => {
  server?.child.kill('SIGKILL');
  cleanup?.();
});

/** Starts reading the big card without gzip (so it is streamed), pauses at the headers. */
function heldOpenRequest(url: string): Promise<{ requestId: string; readAll(): Promise<{ bytes: number; complete: boolean }> }> {
  return new Promise((resolve, reject) => {
    get(`${url}/v1/cards/big-card`, { headers: { Authorization: `Bearer ${key}` } }, (res) => {
      res.pause();
      resolve({
        requestId: String(res.headers['x-request-id']),
        readAll: () => new Promise((done) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('error', () => undefined);
          res.on('close', () => done({ bytes, complete: res.complete }));
          res.resume();
        }),
      });
    }).on('error', reject);
  });
}

describe('SIGTERM under load', () => {
  it('when SIGTERM arrives under load with an answer held open then in-flight answers finish whole, every row is committed, and the exit code is 0', async () => {
    server = await startServerProcess(['serve', '--snapshots', join(dir, 'snapshots'), '--state', join(dir, 'state.sqlite'), '--port', '0', '--workers', '2']);
    const held = await heldOpenRequest(server.url);
    const load = startLoad({
      url: server.url, paths: ['/v1/catalog/summary', `/v1/cards/${FIXTURE_CARD_IDS[0]}`, '/v1/sets/mtg/lea?limit=7&page=3'],
      headers: { authorization: `Bearer ${key}` }, connections: 8,
    });
    await load.receivedAtLeast(100);
    server.child.kill('SIGTERM');
    // Still draining: the held answer keeps the server up (the drain cap is 10 s).
    const early = await Promise.race([server.exited.then(() => 'exited'), sleep(700).then(() => 'running')]);
    expect(early).toBe('running');
    const big = await held.readAll();
    expect(big).toEqual({ bytes: bigBytes, complete: true });
    const exit = await server.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    const result = await load.stop();
    server = null;

    // Nothing that had started to answer was cut; what failed was refused before it was read.
    expect(result.failed.filter((f) => f.hadHeaders)).toEqual([]);
    const state = openStateDb(join(dir, 'state.sqlite'));
    const rows = new Map(auditRows(state).map((r) => [r.request_id, r.status]));
    state.close();
    for (const r of result.received) expect(rows.get(r.requestId)).toBe(r.status);
    expect(rows.get(held.requestId)).toBe(200);
    console.info(`graceful-stop: ${result.received.length} answers under load, ${result.failed.length} refused after SIGTERM (${[...new Set(result.failed.map((f) => f.error))].join(", ")}), held answer of ${bigBytes} bytes completed, exit 0`);
  }, 60_000);
});
