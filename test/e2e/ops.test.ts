/**
 * What operators see, end to end on real ports: the real binary with two cluster workers and an
 * admin port (metrics summed over the workers, JSON request lines on stderr, health endpoints on
 * the public port without a key), and startServer in-process for the admin port's access rule and
 * readiness before and after the first publish.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../proxy/server/main.js';
import { INTERNAL_KEY } from '../helpers/auth-fixtures.js';
import { runCli, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { FIXTURE_CARD_IDS, writeFixtureSnapshot, type FixtureSnapshot } from '../helpers/snapshot-fixture.js';

let dir: string;
let fixture: FixtureSnapshot;
let key: string;
let keyId: string;
let server: ServerProcess | null = null;
const inProcess: RunningServer[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'catalog-ops-'));
  fixture = await writeFixtureSnapshot(join(dir, 'snapshots'));
  const minted = runCli(['keys', 'mint', '--state', join(dir, 'state.sqlite'), '--tenant', 'ops', '--tier', 'standard', '--json']);
  expect(minted.status, minted.stderr).toBe(0);
  ({ key, keyId } = JSON.parse(minted.stdout));
});
afterAll(async () => {
  server?.child.kill('SIGKILL');
  await Promise.all(inProcess.map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const r = await request(url, { headers });
  return { status: r.statusCode, body: await r.body.text(), headers: r.headers };
}

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('catalog serve --workers 2 --admin-port 0', () => {
  it('serves metrics of both workers on the admin port only, health without a key, and one JSON log line per request', async () => {
    server = await startServerProcess([
      'serve', '--snapshots', join(dir, 'snapshots'), '--state', join(dir, 'state.sqlite'), '--port', '0', '--workers', '2', '--admin-port', '0',
    ], { env: { CATALOG_LOG_LEVEL: '' } });
    const metricsUrl = /^metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)$/m.exec(server.stdout())?.[1];
    expect(metricsUrl).toBeDefined();
    expect(metricsUrl).not.toContain(new URL(server.url).port);

    // health on the public port, no credential
    expect(await get(`${server.url}/healthz`)).toMatchObject({ status: 200, body: '{"status":"ok"}' });
    expect(await get(`${server.url}/readyz`)).toMatchObject({ status: 200, body: '{"status":"ready"}' });
    // the metrics are not on the public port, with or without a key
    expect((await get(`${server.url}/metrics`)).status).toBe(404);
    expect((await get(`${server.url}/metrics`, { authorization: `Bearer ${key}` })).status).toBe(404);

    // 20 card reads over concurrent connections (both workers answer), and one without a key
    const N = 20;
    const statuses = await Promise.all(Array.from({ length: N }, (_, i) =>
      get(`${server!.url}/v1/cards/${FIXTURE_CARD_IDS[i % 3]}`, { authorization: `Bearer ${key}` }).then((r) => r.status)));
    expect(statuses.every((s) => s === 200)).toBe(true);
    // Concurrent reads of one object share its first read (a miss each); a few more one after
    // another on one keep-alive connection find it in that worker's cache, so hits are certain.
    const SEQ = 4;
    for (let i = 0; i < SEQ; i++) expect((await get(`${server.url}/v1/cards/${FIXTURE_CARD_IDS[0]}`, { authorization: `Bearer ${key}` })).status).toBe(200);
    expect((await get(`${server.url}/v1/cards/${FIXTURE_CARD_IDS[0]}`)).status).toBe(401);

    const scrape = await get(metricsUrl!);
    expect(scrape.status).toBe(200);
    expect(scrape.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = scrape.body;
    expect(sample(text, 'catalog_http_requests_total{route="/v1/cards/:id",status="200"}')).toBe(N + SEQ);
    expect(sample(text, 'catalog_http_requests_total{route="/v1/cards/:id",status="401"}')).toBe(1);
    expect(sample(text, 'catalog_http_denied_total{status="401"}')).toBe(1);
    expect(sample(text, 'catalog_audit_write_duration_seconds_count')).toBe(N + SEQ);
    expect(sample(text, 'catalog_metrics_workers{state="answered"}')).toBe(2);
    expect(sample(text, `catalog_snapshot_info{snapshot_id="${fixture.id}"}`)).toBe(1);
    expect(sample(text, 'catalog_object_cache_hit_ratio')).toBeGreaterThan(0);
    for (const p of ['primary', 'worker-1', 'worker-2']) expect(sample(text, `process_resident_memory_bytes{process="${p}"}`)).toBeGreaterThan(0);
    expect(text).not.toContain(key);

    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const lines = server.stderr().trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const requests = lines.filter((l) => l.msg === 'request');
    // the 24 reads, the 401 and the two /metrics 404s; the probes are not logged
    expect(requests).toHaveLength(N + SEQ + 3);
    expect(requests.filter((l) => l.status === 200 && l.route === '/v1/cards/:id' && l.keyId === keyId && l.tenant === 'ops' && l.snapshotId === fixture.id)).toHaveLength(N + SEQ);
    expect(new Set(requests.map((l) => l.pid)).size).toBe(2);
    expect(lines.some((l) => String(l.msg).startsWith('catalog serve: stopped'))).toBe(true);
    expect(server.stderr()).not.toContain(key);
    server = null;
  });

  it('a bad --admin-port or CATALOG_LOG_LEVEL stops it with a message naming the option', () => {
    const base = ['serve', '--snapshots', join(dir, 'snapshots'), '--state', join(dir, 'state.sqlite'), '--port', '0', '--workers', '1'];
    const port = runCli([...base, '--admin-port', 'nine']);
    expect(port.status).toBe(64);
    expect(port.stderr).toContain('--admin-port');
    const level = runCli([...base, '--admin-port', '0'], { CATALOG_LOG_LEVEL: 'chatty' });
    expect(level.status).not.toBe(0);
    expect(level.stderr).toContain('CATALOG_LOG_LEVEL');
  });
});

describe('the admin port bound beyond loopback', () => {
  const options = (env: NodeJS.ProcessEnv) => ({
    snapshots: join(dir, 'snapshots'), state: join(dir, 'state.sqlite'), host: '127.0.0.1', port: 0, workers: 1,
    adminPort: 0, adminHost: '0.0.0.0', env, handleSignals: false, log: () => undefined,
  });

  it('refuses to start without an internal key, naming --admin-host', async () => {
    await expect(startServer(options({}))).rejects.toThrow(/--admin-host 0\.0\.0\.0 is not a loopback address.*CATALOG_INTERNAL_KEY/);
  });

  it('with an internal key requires it on /metrics, as X-Service-Internal-Key or a Bearer token', async () => {
    const s = await startServer(options({ CATALOG_INTERNAL_KEY: INTERNAL_KEY }));
    inProcess.push(s);
    const url = `${s.adminUrl!.replace('0.0.0.0', '127.0.0.1')}/metrics`;
    const refused = await get(url);
    expect(refused.status).toBe(401);
    expect(refused.body).not.toContain('catalog_');
    expect((await get(url, { 'x-service-internal-key': 'wrong-key-wrong-key-wrong' })).status).toBe(401);
    expect((await get(url, { 'x-service-internal-key': INTERNAL_KEY })).status).toBe(200);
    const viaBearer = await get(url, { authorization: `Bearer ${INTERNAL_KEY}` });
    expect(viaBearer.status).toBe(200);
    expect(viaBearer.body).toContain('catalog_http_requests_total');
    expect((await get(`${s.adminUrl!.replace('0.0.0.0', '127.0.0.1')}/other`, { 'x-service-internal-key': INTERNAL_KEY })).status).toBe(404);
  });
});

describe('readiness on a real port', () => {
  it('is 503 until the first snapshot is published, then 200, while /healthz is 200 throughout', async () => {
    const root = join(dir, 'empty-root');
    const s = await startServer({
      snapshots: root, state: join(dir, 'state-ready.sqlite'), host: '127.0.0.1', port: 0, workers: 1, env: {}, handleSignals: false,
      log: () => undefined, logger: { error: () => undefined, info: () => undefined },
    });
    inProcess.push(s);
    expect((await get(`${s.url}/readyz`)).status).toBe(503);
    expect((await get(`${s.url}/healthz`)).status).toBe(200);
    await writeFixtureSnapshot(root);
    expect(await get(`${s.url}/readyz`)).toMatchObject({ status: 200, body: '{"status":"ready"}' });
  });
});
