/**
 * `catalog compile --source http://...` through the real CLI against real static file servers
 * (python3 -m http.server, nginx) and a source that fails, as the README's nightly job runs it.
 * Issue 21, item 1: against servers that close the connection after each answer the compile died
 * with undici's `assert(!this.paused)` stack trace and exit 1.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO, runCli, tempDir } from '../helpers/cli.js';
import { nginxMissing, startStaticNginx } from '../helpers/nginx.js';
import { startPythonHttp } from '../helpers/python-http.js';
import { currentId, manifestEntries } from '../helpers/snapshot-files.js';

let catalog: string;
let fromFolder: string[];

/** The sha256 of every object of the snapshot `root/current` names, in manifest order. */
const hashes = (root: string): string[] => manifestEntries(root).map((e) => e.sha256);

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** Serves the catalog's files (Connection: close), unless `misbehave` answered the request itself. */
function catalogServer(misbehave: (name: string, res: ServerResponse, req: IncomingMessage) => boolean): Server {
  return createServer((req, res) => {
    const name = (req.url ?? '/').slice(1);
    if (misbehave(name, res, req)) return;
    if (!/^[a-z-]+\.(ndjson|json)$/.test(name) || !existsSync(join(catalog, name))) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { connection: 'close', 'content-type': 'application/x-ndjson' }).end(readFileSync(join(catalog, name)));
  });
}

/** No line of Node's stack trace, and exactly one `catalog:` line. */
function expectOneMessage(stderr: string): string {
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr).not.toContain('node:internal');
  const lines = stderr.split('\n').filter((l) => l.startsWith('catalog: '));
  expect(lines, stderr).toHaveLength(1);
  return lines[0];
}

beforeAll(async () => {
  const dir = tempDir();
  // nginx's workers (www-data) must be able to enter the folder and read the files.
  chmodSync(dir, 0o755);
  catalog = join(dir, 'catalog');
  const r = await runCli(['generate', '--out', catalog, '--cards', '500', '--seed', '8']);
  expect(r.code, r.stderr).toBe(0);
  const root = tempDir();
  const c = await runCli(['compile', '--source', catalog, '--out', root]);
  expect(c.code, c.stderr).toBe(0);
  fromFolder = hashes(root);
});

describe('catalog compile from an HTTP source', () => {
  it('when the source is python3 -m http.server (a new connection per file, closed after it) then every compile succeeds with the objects of the folder', async () => {
    const python = await startPythonHttp(catalog);
    try {
      for (let i = 0; i < 2; i++) {
        const root = tempDir();
        const r = await runCli(['compile', '--source', `${python.url}/`, '--out', root], { timeoutMs: 120_000 });
        expect(r.code, r.stderr).toBe(0);
        expect(hashes(root)).toEqual(fromFolder);
      }
    } finally {
      await python.stop();
    }
  }, 240_000);

  it.for([
    ['keep-alive', true],
    ['keepalive_timeout 0: Connection: close', false],
  ] as const)('when the source is nginx (%s) then the compile succeeds with the objects of the folder', { timeout: 240_000 }, async ([, keepAlive], ctx) => {
    const root = tempDir();
    chmodSync(root, 0o755);
    mkdirSync(join(root, 'export'), { mode: 0o755 });
    for (const name of readdirSync(catalog)) copyFileSync(join(catalog, name), join(root, 'export', name));
    const nginx = await startStaticNginx(root, join(tempDir(), 'nginx'), { keepAlive });
    if (nginx === null) return nginxMissing(ctx, 'the compile from nginx');
    try {
      const out = tempDir();
      const r = await runCli(['compile', '--source', `${nginx.url}/export/`, '--out', out], { timeoutMs: 120_000 });
      expect(r.code, r.stderr).toBe(0);
      expect(hashes(out)).toEqual(fromFolder);
    } finally {
      await nginx.stop();
    }
  });

  it('when a file keeps failing then the compile exits 69 after its retries with one line naming the URL, and publishes nothing', async () => {
    let attempts = 0;
    const server = catalogServer((name, res) => {
      if (name !== 'prices.ndjson') return false;
      attempts += 1;
      res.writeHead(503, { connection: 'close' }).end();
      return true;
    });
    const base = await listen(server);
    try {
      const root = tempDir();
      const r = await runCli(['compile', '--source', base, '--out', root], { timeoutMs: 120_000 });
      expect(r.code, r.stderr).toBe(69);
      expect(expectOneMessage(r.stderr)).toBe(`catalog: GET ${base}prices.ndjson failed after 5 attempts (last: HTTP 503)`);
      expect(attempts).toBe(5);
      expect(currentId(root)).toBeNull();
    } finally {
      server.close();
    }
  }, 120_000);

  it('when a file fails with 500 twice and then recovers then the compile succeeds', async () => {
    let failures = 0;
    const server = catalogServer((name, res) => {
      if (name !== 'cards.ndjson' || failures >= 2) return false;
      failures += 1;
      res.writeHead(500, { connection: 'close' }).end('internal error');
      return true;
    });
    const base = await listen(server);
    try {
      const root = tempDir();
      const r = await runCli(['compile', '--source', base, '--out', root], { timeoutMs: 120_000 });
      expect(r.code, r.stderr).toBe(0);
      expect(failures).toBe(2);
      expect(hashes(root)).toEqual(fromFolder);
    } finally {
      server.close();
    }
  }, 120_000);

  it('when undici throws where nothing can catch it during the compile then the compile exits 69 with one line, no stack trace, and current is unchanged', async () => {
    // The compile reads a source that never answers meta.json, while a preloaded module makes the
    // one request that still trips undici 7's assertion (nodejs/undici#5360): a body of exactly the
    // body stream's highWaterMark (64 KiB), never read, then the FIN of a Connection: close.
    const hanging = createServer(() => {});
    const base = await listen(hanging);
    const crasher = createServer((_req, res) => {
      res.writeHead(200, { 'content-length': 65536, connection: 'close' }).end(Buffer.alloc(65536, 97));
    });
    const crashUrl = await listen(crasher);
    const dir = tempDir();
    const preload = join(dir, 'undici-paused-end.mjs');
    writeFileSync(preload, `import diagnostics from 'node:diagnostics_channel';
import { request } from ${JSON.stringify(pathToFileURL(join(REPO, 'node_modules/undici/index.js')).href)};
let fired = false;
// Once the compile's HTTP source has sent its first request (so the compile is running):
diagnostics.subscribe('undici:request:create', () => {
  if (fired) return;
  fired = true;
  setTimeout(() => void request(${JSON.stringify(crashUrl)}).then(() => {}), 50);
});
`);
    const root = tempDir();
    const first = await runCli(['compile', '--source', catalog, '--out', root]);
    expect(first.code, first.stderr).toBe(0);
    const before = currentId(root);
    try {
      const r = await runCli(['compile', '--source', base, '--out', root], { env: { NODE_OPTIONS: `--import=${pathToFileURL(preload).href}` }, timeoutMs: 60_000 });
      expect(r.code, r.stderr).toBe(69);
      expect(expectOneMessage(r.stderr)).toMatch(/^catalog: the HTTP source failed inside the HTTP client \(undici\): ERR_ASSERTION: .*\(at Parser\.finish /);
      expect(currentId(root)).toBe(before);
      // The next compile takes over the lock of the process that ended and publishes.
      const again = await runCli(['compile', '--source', catalog, '--out', root]);
      expect(again.code, again.stderr).toBe(0);
      expect(currentId(root)).not.toBe(before);
    } finally {
      hanging.closeAllConnections();
      hanging.close();
      crasher.close();
    }
  }, 120_000);
});
