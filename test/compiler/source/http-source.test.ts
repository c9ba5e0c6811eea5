import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CatalogError } from '../../../snapshots/errors.js';
import {
  loadCatalog,
  openSource,
  streamPrices,
  type CatalogSource,
  type LoadedCatalog,
  type OpenSourceOptions,
} from '../../../compiler/source/index.js';
import { baseCatalog, card, writeCatalog, removeTempDirs } from './catalog-fixture.js';
import { cutMidBody, serveFolder, type Misbehave, type TestServer } from './http-server.js';

afterAll(removeTempDirs);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// Fast backoff so retry tests stay quick; the policy itself is unit-tested in retry.test.ts.
const FAST: OpenSourceOptions = { retryBaseMs: 5, fetchTimeoutMs: 2_000 };

async function serve(dir: string, misbehave?: Misbehave, options?: { gzip?: boolean; delayMs?: number }): Promise<TestServer> {
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
  for await (const line of streamPrices(source, catalog)) prices.push(line);
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
    binders: catalog.binders,
    activity: catalog.activity,
    pullObservations: catalog.pullObservations,
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
    expect(catalog.binders).toEqual([]);
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

  it.each([400, 401, 500])('when the server answers %i then it is not retried', async (status) => {
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
