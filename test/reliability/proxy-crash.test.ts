/**
 * Proxy crashes (issue 6): the real server (`catalog serve --workers 2`) is killed with SIGKILL,
 * primary and workers at once, at a random moment under concurrent load, restarted on the same state
 * file and loaded again. Afterwards every answer a client received has its audit row (same request
 * id, same status), and in no rate window did the key get more 200s than its limit, across the kill.
 * RELIABILITY_TRIALS (default 2) sets the number of kills; scripts/reliability-soak.sh runs more.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyStore } from '../../proxy/keys/store.js';
import { windowStartOf } from '../../proxy/limits/counter.js';
import { openStateDb } from '../../proxy/state/open.js';
import { auditRows, tempDir } from '../helpers/auth-fixtures.js';
import { startLoad, type Received } from '../helpers/load.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { FIXTURE_CARD_IDS, writeFixtureSnapshot } from '../helpers/snapshot-fixture.js';

const TRIALS = Number(process.env.RELIABILITY_TRIALS ?? 2);
const LIMIT = 150;

let dir: string;
let cleanup: () => void;
let key: string;
let stateFile: string;
const running = new Set<ServerProcess>();

beforeAll(async () => {
  const tmp = tempDir('catalog-proxy-crash-');
  dir = tmp.dir;
  cleanup = tmp.cleanup;
  await writeFixtureSnapshot(join(dir, 'snapshots'));
  stateFile = join(dir, 'state.sqlite');
  const state = openStateDb(stateFile);
  key = createKeyStore(state).mint({ tenant: 'acme', tier: 'free' }).key;
  state.close();
});
afterAll(() => {
  for (const s of running) killGroup(s);
  cleanup?.();
});

function killGroup(server: ServerProcess): void {
  try {
    process.kill(-server.child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
  running.delete(server);
}

async function serve(): Promise<ServerProcess> {
  const server = await startServerProcess(
    ['serve', '--snapshots', join(dir, 'snapshots'), '--state', stateFile, '--port', '0', '--workers', '2'],
    { env: { CATALOG_TIER_LIMITS: `free=${LIMIT}` }, detached: true },
  );
  running.add(server);
  return server;
}

const PATHS = ['/v1/catalog/summary', `/v1/cards/${FIXTURE_CARD_IDS[0]}`, `/v1/cards/${FIXTURE_CARD_IDS[1]}?range=all`, '/v1/trending?limit=5', '/v1/cards/no-such-card'];

describe('SIGKILL of the whole proxy under load', () => {
  it(`when the server is killed ${TRIALS} times under load then every received answer has its audit row and no window allowed more than the limit`, async () => {
    const received: Received[] = [];
    let cutAnswers = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const server = await serve();
      const load = startLoad({ url: server.url, paths: PATHS, headers: { authorization: `Bearer ${key}` }, connections: 16 });
      await load.receivedAtLeast(20);
      await sleep(Math.random() * 400);
      killGroup(server);
      await server.exited;
      const result = await load.stop();
      received.push(...result.received);
      cutAnswers += result.failed.filter((f) => f.hadHeaders).length;
    }
    // After the last kill: restart on the same state file and keep going, so the count carries on.
    const server = await serve();
    const after = startLoad({ url: server.url, paths: PATHS, headers: { authorization: `Bearer ${key}` }, connections: 8, maxRequests: 100 });
    received.push(...(await after.finished()).received);
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    running.delete(server);

    const state = openStateDb(stateFile);
    const rows = auditRows(state);
    const counters = state.sqlite.prepare('SELECT window_start, count FROM rate_counters').all() as { window_start: number; count: number }[];
    state.close();
    const rowById = new Map(rows.map((r) => [r.request_id, r]));
    const lost = received.filter((r) => rowById.get(r.requestId)?.status !== r.status);
    expect(lost).toEqual([]);

    // Per rate window: the 200s (audited, so every received one is among them) never exceed the limit.
    const okPerWindow = new Map<number, number>();
    for (const r of rows) if (r.status === 200) okPerWindow.set(windowStartOf(r.ts_ms), (okPerWindow.get(windowStartOf(r.ts_ms)) ?? 0) + 1);
    for (const [, ok] of okPerWindow) expect(ok).toBeLessThanOrEqual(LIMIT);
    // The counters never lag behind what was answered (a request is counted before it is served).
    const rowsPerWindow = new Map<number, number>();
    for (const r of rows) rowsPerWindow.set(windowStartOf(r.ts_ms), (rowsPerWindow.get(windowStartOf(r.ts_ms)) ?? 0) + 1);
    for (const c of counters) expect(c.count).toBeGreaterThanOrEqual(rowsPerWindow.get(c.window_start) ?? 0);
    expect(received.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    console.info(`proxy-crash: ${TRIALS} kills, ${received.length} answers received, all ${received.length} audited; ${rows.length - received.length} rows of answers the kill cut off before the client got them (${cutAnswers} with headers); 200s per window ${JSON.stringify([...okPerWindow.values()])} (limit ${LIMIT})`);
  }, 120_000);
});
