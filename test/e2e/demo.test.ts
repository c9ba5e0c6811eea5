/**
 * `catalog demo` end to end with the real binary: generate (small), compile, mint, serve, answer
 * with the printed key, stop on SIGINT (Ctrl-C) with exit 0; a second run re-uses the catalog.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

let dir: string;
let running: ServerProcess | null = null;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'catalog-demo-'));
});
afterAll(() => {
  running?.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function runDemo(): Promise<{ key: string; url: string; server: ServerProcess }> {
  running = await startServerProcess(['demo', '--dir', dir, '--port', '0', '--cards', '200'], { timeoutMs: 60_000 });
  const key = /Key {2}(rxk_[0-9A-Za-z]{32})/.exec(running.stdout())?.[1];
  expect(key).toBeDefined();
  expect(running.stdout()).toContain(`curl -s --compressed -H 'Authorization: Bearer ${key}' ${running.url}/v1/catalog/summary`);
  return { key: key!, url: running.url, server: running };
}

describe('catalog demo', () => {
  it('generates, compiles, mints a key, serves, and stops cleanly on Ctrl-C', async () => {
    const { key, url, server } = await runDemo();
    const res = await fetch(`${url}/v1/catalog/summary`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.kind).toBe('catalogSummary');
    const trending = await fetch(`${url}/v1/trending?limit=3`, { headers: { Authorization: `Bearer ${key}` } });
    expect((await trending.json()).data).toHaveLength(3);
    expect(server.stderr()).toContain('generating a catalog of 200 cards');
    server.child.kill('SIGINT');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    running = null;
  });

  it('a second run re-uses the catalog and mints a new key', async () => {
    const { key, url, server } = await runDemo();
    expect(server.stderr()).toContain('using the catalog in');
    const res = await fetch(`${url}/v1/catalog/summary`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    running = null;
  });
});
