import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CatalogError } from '../../../snapshots/errors.js';
import {
  loadCatalog,
  openSource,
  streamPrices,
  type CatalogSource,
  type LoadedCatalog,
  type OpenSourceOptions,
} from '../../../compiler/source/index.js';
import { generateCatalog } from '../../../compiler/generate/index.js';
import { baseCatalog, card, makeTempDir, writeCatalog, removeTempDirs } from './catalog-fixture.js';
import { cutMidBody, cutMidChunkedBody, serveFolder, type Misbehave, type ServeOptions, type TestServer } from './http-server.js';
import { nginxMissing, startStaticNginx } from '../../helpers/nginx.js';
import { startPythonHttp } from '../../helpers/python-http.js';

afterAll(removeTempDirs);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// Fast backoff so retry tests stay quick; the policy itself is unit-tested in retry.test.ts.
const FAST: OpenSourceOptions = { retryBaseMs: 5, fetchTimeoutMs: 2_000 };

async function serve(dir: string, misbehave?: Misbehave, options?: ServeOptions): Promise<TestServer> {
  const server = await serveFolder(dir, misbehave, options);
  cleanups.push(() => server.close());
  return server;
}

function open(location: string, options: OpenSourceOptions = FAST): CatalogSource {
  const source = openSource(location, options);
  cleanups.push(() => source.close());
  return source;
}

/** Everything a load and a price stream yield, as plain data for comparison. */
async function readAll(source: CatalogSource, maxRejects = 0) {
  const catalog = await loadCatalog(source, { maxRejects });
  const prices = [];
  for await (const { record, text } of streamPrices(source, catalog)) prices.push({ record, text });
  return { ...plain(catalog), prices, rejects: catalog.rejects.finish() };
}

function plain(catalog: LoadedCatalog) {
  return {
    meta: catalog.meta,
    sets: catalog.sets,
    cards: [...catalog.cards.entries()],
    figureSeries: [...catalog.figureSeries.entries()],
    figures: [...catalog.figures.entries()],
    fxRates: catalog.fxRates,
    users: [...catalog.users.entries()],
    publishedBinders: [...catalog.publishedBinders],
    activity: [...catalog.activity],
    pullObservations: [...catalog.pullObservations],
  };
}

async function caught(promise: Promise<unknown>): Promise<CatalogError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(CatalogError);
    return err as CatalogError;
  }
  throw new Error('expected a CatalogError');
}

/** A catalog with enough cards that a half body cuts through many lines. */
function biggerCatalog(): string {
  const base = baseCatalog();
  const extra = Array.from({ length: 2_000 }, (_, i) => card(`mtg-lea-x${i}`, { number: String(i) }));
  return writeCatalog({ cards: [...base.cards, ...extra] });
}

describe('the HTTP source', () => {
  it('when it serves the same folder then the load gives exactly what the folder source gives', async () => {
    const dir = biggerCatalog();
    const server = await serve(dir);
    const fromHttp = await readAll(open(server.base));
    const fromFolder = await readAll(open(dir));
    expect(fromHttp).toEqual(fromFolder);
    expect(fromHttp.cards).toHaveLength(2_003);
    expect(fromHttp.prices).toHaveLength(2);
    // One GET per file: meta + the ten NDJSON files.
    expect([...server.requests.values()].every((n) => n === 1)).toBe(true);
    expect(server.requests.size).toBe(11);
  });

  it('when every file fails twice with 503 then the load succeeds after retries with identical records', async () => {
    const dir = biggerCatalog();
    const server = await serve(dir, ({ attempt }, _req, res) => {
      if (attempt > 2) return false;
      res.writeHead(503, { 'content-type': 'text/plain' }).end('busy');
      return true;
    });
    const fromHttp = await readAll(open(server.base));
    expect(fromHttp).toEqual(await readAll(open(dir)));
    expect(server.requests.get('cards.ndjson')).toBe(3);
    expect(server.requests.get('meta.json')).toBe(3);
  });

  it('when a body is cut off mid-stream then the file is fetched again from scratch and no line is duplicated', async () => {
    const dir = biggerCatalog();
    const server = await serve(dir, ({ file, attempt }, _req, res) => {
      if (attempt !== 1 || (file !== 'cards.ndjson' && file !== 'prices.ndjson')) return false;
      cutMidBody(dir, file, res);
      return true;
    });
    const fromHttp = await readAll(open(server.base));
    expect(fromHttp).toEqual(await readAll(open(dir)));
    expect(fromHttp.cards).toHaveLength(2_003);
    expect(server.requests.get('cards.ndjson')).toBe(2);
  });

  it('when the server answers gzip then the body is decoded', async () => {
    const dir = writeCatalog();
    const server = await serve(dir, undefined, { gzip: true });
    expect(await readAll(open(server.base))).toEqual(await readAll(open(dir)));
  });

  it('when a required file is 404 then the load fails with invalid_source naming the URL, without retrying', async () => {
    const dir = writeCatalog({ cards: null });
    const server = await serve(dir);
    const err = await caught(loadCatalog(open(server.base), { maxRejects: 0 }));
    expect(err.code).toBe('invalid_source');
    expect(err.message).toContain(`required file ${server.base}cards.ndjson is missing`);
    expect(server.requests.get('cards.ndjson')).toBe(1);
  });

  it('when meta.json is 404 then readMeta fails with invalid_source naming the URL', async () => {
    const server = await serve(writeCatalog({ meta: null }));
    const err = await caught(open(server.base).readMeta());
    expect(err.code).toBe('invalid_source');
    expect(err.message).toContain(`${server.base}meta.json`);
  });

  it('when optional files are 404 then they are zero records', async () => {
    const server = await serve(writeCatalog({ users: null, binders: null, activity: null, pullObservations: null }));
    const catalog = await loadCatalog(open(server.base), { maxRejects: 0 });
    expect(catalog.users.size).toBe(0);
    expect([...catalog.publishedBinders]).toEqual([]);
    expect(catalog.cards.size).toBe(3);
  });

  it('when a file keeps failing with 503 then the load fails with source_unreachable after the allowed retries', async () => {
    const server = await serve(writeCatalog(), ({ file }, _req, res) => {
      if (file !== 'sets.ndjson') return false;
      res.writeHead(503).end();
      return true;
    });
    const err = await caught(loadCatalog(open(server.base, { ...FAST, retries: 2 }), { maxRejects: 0 }));
    expect(err.code).toBe('source_unreachable');
    expect(err.message).toBe(`GET ${server.base}sets.ndjson failed after 3 attempts (last: HTTP 503)`);
    expect(server.requests.get('sets.ndjson')).toBe(3);
  });

  it.each([400, 401, 403])('when the server answers %i then it is not retried', async (status) => {
    const server = await serve(writeCatalog(), ({ file }, _req, res) => {
      if (file !== 'cards.ndjson') return false;
      res.writeHead(status).end();
      return true;
    });
    const err = await caught(loadCatalog(open(server.base), { maxRejects: 0 }));
    expect(err.code).toBe('source_unreachable');
    expect(err.message).toBe(`GET ${server.base}cards.ndjson answered HTTP ${status}`);
    expect(server.requests.get('cards.ndjson')).toBe(1);
  });

  it('when nothing listens then the load fails with source_unreachable', async () => {
    const server = await serveFolder(writeCatalog());
    const base = server.base;
    await server.close();
    const err = await caught(open(base, { ...FAST, retries: 1 }).readMeta());
    expect(err.code).toBe('source_unreachable');
    expect(err.message).toContain('failed after 2 attempts (last: ECONNREFUSED');
  });

  it('when the server sends Retry-After then the retry waits that long', async () => {
    const server = await serve(writeCatalog(), ({ file, attempt }, _req, res) => {
      if (file !== 'meta.json' || attempt > 1) return false;
      res.writeHead(429, { 'retry-after': '1' }).end();
      return true;
    });
    const started = Date.now();
    await open(server.base).readMeta();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests.get('meta.json')).toBe(2);
  });

  it('when a response does not come within fetchTimeoutMs then it is retried', async () => {
    const server = await serve(writeCatalog(), ({ file, attempt }) => file === 'meta.json' && attempt === 1);
    const meta = await open(server.base, { ...FAST, fetchTimeoutMs: 200 }).readMeta();
    expect(meta.asOf).toBe('2026-11-20');
    expect(server.requests.get('meta.json')).toBe(2);
  });

  it('when concurrency is 2 then at most 2 files are downloaded at once', async () => {
    const dir = writeCatalog();
    const server = await serve(dir, undefined, { delayMs: 40 });
    await readAll(open(server.base, { ...FAST, concurrency: 2 }));
    expect(server.maxInFlight).toBe(2);
  });

  it('when closed during a hanging download then close returns promptly', async () => {
    const server = await serve(writeCatalog(), ({ file }) => file === 'prices.ndjson');
    const source = openSource(server.base, { ...FAST, fetchTimeoutMs: 60_000 });
    await loadCatalog(source, { maxRejects: 0 });
    const started = Date.now();
    await source.close();
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('when the base URL lacks its trailing slash or has credentials then files still resolve and describe hides secrets', async () => {
    const server = await serve(writeCatalog());
    const url = new URL(server.base.replace(/\/$/, ''));
    url.username = 'reader';
    url.password = 's3cret';
    url.search = '?token=abc';
    const source = open(url.href);
    expect(source.describe()).not.toContain('s3cret');
    expect(source.describe()).not.toContain('abc');
    expect((await source.readMeta()).asOf).toBe('2026-11-20');
  });
});

/**
 * A generated catalog whose prices file is over 3 MiB: big enough that a body arrives faster than
 * it can be written, which is when a body that pushes back pauses undici's parser.
 */
let large: string;
beforeAll(async () => {
  large = makeTempDir('source-large-');
  fs.chmodSync(large, 0o755);
  await generateCatalog({ out: large, cards: 1500, seed: 5, asOf: '2026-11-20' });
});

/** The files of `dir` under `<root>/export/`, readable by nginx's unprivileged workers. */
function exportRoot(dir: string): string {
  const root = makeTempDir('source-export-');
  fs.chmodSync(root, 0o755);
  fs.mkdirSync(path.join(root, 'export'), { mode: 0o755 });
  for (const name of fs.readdirSync(dir)) fs.copyFileSync(path.join(dir, name), path.join(root, 'export', name));
  return root;
}

describe('the HTTP source against static file servers and connections that end', () => {
  // Issue 21, item 1: against a server that closes the connection after each answer, the last bytes
  // of a body and the FIN came together while the body stream still held unread data; undici 7's
  // parser was paused (backpressure) when the socket ended and its 'end' handler threw an uncatchable
  // AssertionError (assert(!this.paused) in Parser.finish) that crashed the compile.
  it('when the server closes every connection after its answer (Connection: close) then every load gives what the folder gives', async () => {
    const server = await serve(large, undefined, { connectionClose: true });
    const expected = await readAll(open(large));
    for (let i = 0; i < 3; i++) expect(await readAll(open(server.base))).toEqual(expected);
    expect(server.connections).toBe(3 * 11);
    expect(fs.statSync(path.join(large, 'prices.ndjson')).size).toBeGreaterThan(3 * 1024 * 1024);
  });

  it('when the files are served by python3 -m http.server (HTTP/1.0: one connection per file) then the load gives what the folder gives', async () => {
    const python = await startPythonHttp(large);
    cleanups.push(() => python.stop());
    const expected = await readAll(open(large));
    for (let i = 0; i < 3; i++) expect(await readAll(open(`${python.url}/`))).toEqual(expected);
  });

  it.for([
    ['keep-alive', true],
    ['keepalive_timeout 0: Connection: close', false],
  ] as const)('when the files are served by nginx (%s) then the load gives what the folder gives', async ([, keepAlive], ctx) => {
    const root = exportRoot(large);
    const nginx = await startStaticNginx(root, path.join(makeTempDir('source-nginx-'), 'nginx'), { keepAlive });
    if (nginx === null) return nginxMissing(ctx, 'the HTTP source against nginx');
    cleanups.push(() => nginx.stop());
    const expected = await readAll(open(large));
    for (let i = 0; i < 3; i++) expect(await readAll(open(`${nginx.url}/export/`))).toEqual(expected);
  });

  it('when the server is slow (the body in 16 KiB pieces 5 ms apart, each within fetchTimeoutMs) then the load succeeds without a retry', async () => {
    const dir = biggerCatalog();
    const server = await serve(dir, undefined, { drip: { bytes: 16 * 1024, ms: 5 }, connectionClose: true });
    expect(await readAll(open(server.base, { ...FAST, fetchTimeoutMs: 1_000 }))).toEqual(await readAll(open(dir)));
    expect([...server.requests.values()].every((n) => n === 1)).toBe(true);
  });

  it('when a piece of a slow body takes longer than fetchTimeoutMs then the file is fetched again', async () => {
    const dir = biggerCatalog();
    const server = await serve(dir, ({ file, attempt }, _req, res) => {
      if (file !== 'cards.ndjson' || attempt !== 1) return false;
      // Half the body, then silence past the timeout.
      const body = fs.readFileSync(path.join(dir, file));
      res.writeHead(200, { 'content-length': body.length }).write(body.subarray(0, body.length >> 1));
      return true;
    });
    const fromHttp = await readAll(open(server.base, { ...FAST, fetchTimeoutMs: 300 }));
    expect(fromHttp).toEqual(await readAll(open(dir)));
    expect(server.requests.get('cards.ndjson')).toBe(2);
  });

  it.each([
    ['with Content-Length and Connection: close', 'length'],
    ['chunked (no Content-Length)', 'chunked'],
  ])('when the connection drops mid-file (%s) then the file is fetched again and no line is duplicated', async (_name, framing) => {
    const server = await serve(large, ({ file, attempt }, _req, res) => {
      if (attempt !== 1 || (file !== 'cards.ndjson' && file !== 'prices.ndjson')) return false;
      if (framing === 'chunked') cutMidChunkedBody(large, file, res);
      else cutMidBody(large, file, res);
      return true;
    }, { connectionClose: framing === 'length' });
    expect(await readAll(open(server.base))).toEqual(await readAll(open(large)));
    expect(server.requests.get('cards.ndjson')).toBe(2);
    expect(server.requests.get('prices.ndjson')).toBe(2);
  });

  it('when a file answers 500 twice and then recovers then the load succeeds after retries', async () => {
    const dir = biggerCatalog();
    const server = await serve(dir, ({ file, attempt }, _req, res) => {
      if (file !== 'prices.ndjson' || attempt > 2) return false;
      res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
      return true;
    }, { connectionClose: true });
    expect(await readAll(open(server.base))).toEqual(await readAll(open(dir)));
    expect(server.requests.get('prices.ndjson')).toBe(3);
  });

  it('when a file keeps answering 500 then the load fails with source_unreachable after the allowed retries', async () => {
    const server = await serve(writeCatalog(), ({ file }, _req, res) => {
      if (file !== 'cards.ndjson') return false;
      res.writeHead(500).end();
      return true;
    });
    const err = await caught(loadCatalog(open(server.base, { ...FAST, retries: 2 }), { maxRejects: 0 }));
    expect(err.code).toBe('source_unreachable');
    expect(err.message).toBe(`GET ${server.base}cards.ndjson failed after 3 attempts (last: HTTP 500)`);
  });

  it('when the body is gzip and the connection closes after it then it is decoded', async () => {
    const server = await serve(large, undefined, { gzip: true, connectionClose: true });
    expect(await readAll(open(server.base))).toEqual(await readAll(open(large)));
  });
});
