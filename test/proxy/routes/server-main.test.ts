import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyStore } from '../../../proxy/keys/store.js';
import { startServer, type RunningServer } from '../../../proxy/server/main.js';
import { openStateDb } from '../../../proxy/state/open.js';
import { writeFixtureSnapshot } from '../../helpers/snapshot-fixture.js';
import { compiledCatalog } from '../../helpers/compiled-catalog.js';

let dir: string;
let key: string;
const lines: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'catalog-main-'));
  await writeFixtureSnapshot(join(dir, 'snapshots'));
  const state = openStateDb(join(dir, 'state.sqlite'));
  key = createKeyStore(state).mint({ tenant: 'acme', tier: 'standard' }).key;
  state.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const start = (overrides: Partial<Parameters<typeof startServer>[0]> = {}) => startServer({
  snapshots: join(dir, 'snapshots'), state: join(dir, 'state.sqlite'), host: '127.0.0.1', port: 0, workers: 1, env: {},
  log: (line) => lines.push(line), handleSignals: false, ...overrides,
});

/** This process's open file descriptors on a search.sqlite under `root` (Linux /proc). */
function openSearchFiles(root: string): number {
  let n = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(root) && target.endsWith('search.sqlite')) n++;
    } catch {
      // The fd closed between the listing and the readlink.
    }
  }
  return n;
}

/** Raw request (node:http), so the request target is sent exactly as written. */
function raw(server: RunningServer, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('startServer (one process, real sockets)', () => {
  it('when the server stops then the search index files it opened are closed', async () => {
    // The fixture snapshot has no search index; a small real compile has one.
    const catalog = await compiledCatalog(60);
    const server = await start({ snapshots: catalog.root });
    const res = await fetch(`${server.url}/v1/search?q=a`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(openSearchFiles(catalog.root)).toBeGreaterThan(0);
    await server.stop();
    await server.closed;
    expect(openSearchFiles(catalog.root)).toBe(0);
  });

  it('serves the app on a free port and logs one line per start and stop', async () => {
    lines.length = 0;
    const server = await start();
    expect(server.role).toBe('single');
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/);
    const res = await fetch(`${server.url}/v1/catalog/summary`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect((await res.json()).kind).toBe('catalogSummary');
    expect((await fetch(`${server.url}/v1/catalog/summary`)).status).toBe(401);
    await server.stop();
    await server.closed;
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(`listening on ${server.url}`);
    expect(lines[1]).toContain('stopped');
    expect(lines.join('\n')).not.toContain(key);
  });

  it('a URL longer than 8 KiB gets a JSON 400 before the app runs; a raw dot segment never reaches the store', async () => {
    const server = await start();
    const long = await raw(server, `/v1/cards/${'a'.repeat(9000)}`, { Authorization: `Bearer ${key}` });
    expect(long.status).toBe(400);
    expect(JSON.parse(long.body)).toMatchObject({ error: 'invalid_parameter' });
    expect(long.headers['x-request-id']).toBeTypeOf('string');
    const dots = await raw(server, '/v1/cards/%2e%2e', { Authorization: `Bearer ${key}` });
    expect([400, 404]).toContain(dots.status);
    await server.stop();
  });

  it('stop() called while a response is being sent lets it complete, then closes', async () => {
    const server = await start();
    const url = new URL(server.url);
    const body = await new Promise<string>((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path: '/v1/sets/mtg/lea', headers: { Authorization: `Bearer ${key}` } }, (res) => {
        // Response headers are in: the request is in flight. Ask the server to stop now.
        void server.stop();
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.end();
    });
    expect(JSON.parse(body).data).toHaveLength(100);
    await server.closed;
    await expect(fetch(`${server.url}/v1/catalog/summary`)).rejects.toThrow();
  });

  it('a bad setting stops the start with a message naming it', async () => {
    await expect(start({ env: { CATALOG_TIER_LIMITS: 'gold=5' } })).rejects.toThrow(/CATALOG_TIER_LIMITS/);
    await expect(start({ port: 70000 })).rejects.toThrow(/--port/);
  });

  it('a port already taken is reported, not thrown as a stack', async () => {
    const first = await start();
    const port = Number(new URL(first.url).port);
    await expect(start({ port })).rejects.toThrow(
      /cannot listen on http:\/\/127\.0\.0\.1:[0-9]+: EADDRINUSE \(the port is taken by another process; stop it or choose another port \(0 = any free port\)\)/,
    );
    await first.stop();
  });
});
