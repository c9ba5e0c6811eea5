/**
 * The OpenAPI document cannot drift from the code: every route of the real app (real SQLite state,
 * a snapshot compiled from the example catalog) is called for its 200 and for every error status
 * its operation documents, and each response's status, headers and body are validated against the
 * document with Ajv (JSON Schema 2020-12). The last test checks every documented (operation,
 * status) pair was seen, so documenting a status the code never sends fails too.
 *
 * The snapshot root holds three snapshots: the example catalog compiled signed, compiled signed again
 * after its one price change (compileExampleCatalog), then compiled unsigned (the current one), so
 * the signature route has a 200 (pinned to the second) and a 404, and the changes route a real
 * `since`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManifestHeader } from '../../snapshots/manifest.js';
import { createApp } from '../../proxy/app.js';
import { loadConfig } from '../../proxy/config.js';
import { signSessionCookie } from '../../proxy/gate/session.js';
import { createKeyStore } from '../../proxy/keys/store.js';
import { failingReads } from '../../proxy/openapi/capture-examples.js';
import { exampleSigningKeys } from '../../proxy/openapi/example-signing-key.js';
import { buildOpenApiDocument } from '../../proxy/openapi/document.js';
import { readRoutes } from '../../proxy/openapi/table-paths.js';
import { partnerRoutes } from '../../proxy/route-table/table.js';
import { openStateDb, type StateDb } from '../../proxy/state/open.js';
import { createFsSnapshotSource } from '../../snapshots/store/fs.js';
import type { SnapshotSource } from '../../snapshots/store/types.js';
import { INTERNAL_KEY, SESSION_SECRET, T0, tempDir, testClock } from '../helpers/auth-fixtures.js';
import { runCli } from '../helpers/cli.js';
import { compileExampleCatalog, type CompiledCatalog } from '../helpers/example-catalog.js';
import { createResponseValidator } from '../helpers/openapi-validator.js';

type App = ReturnType<typeof createApp>;

const doc = buildOpenApiDocument();
const validator = createResponseValidator(doc);
const seen = new Set<string>();
/**
 * Documented, but no request can make the code send it: the document and the reference page are
 * built from constants; the page's script is read from the installed redoc package.
 */
const UNREACHABLE = new Set(['getOpenApi 500', 'getDocs 500', 'getDocsScript 500']);

const env = { CATALOG_INTERNAL_KEY: INTERNAL_KEY, CATALOG_SESSION_SECRET: SESSION_SECRET, CATALOG_TIER_LIMITS: 'free=1' };
const internal = { 'X-Service-Internal-Key': INTERNAL_KEY };
const gzip = { 'Accept-Encoding': 'gzip' };

let catalog: CompiledCatalog;
let tmp: ReturnType<typeof tempDir>;
const states: StateDb[] = [];
let main: App;
let empty: App;
let failing: App;
let closedState: App;
let partner: Record<string, string>;
let exhausted: Record<string, string>;
let ownKeyId: string;
let otherTenantKeyId: string;
let signedId: string;

function appOver(snapshots: SnapshotSource, name: string): { app: App; state: StateDb } {
  const state = openStateDb(`${tmp.dir}/${name}.sqlite`);
  states.push(state);
  const app = createApp({
    db: state, config: loadConfig(env), snapshots, clock: testClock(), logger: { error: () => undefined, info: () => undefined },
    // The empty app publishes no key: its public-key route is the 404.
    publicKey: name === 'empty' ? null : exampleSigningKeys().publicKey,
  });
  return { app, state };
}

/** Sends one request, validates the answer against the document, records what it covered. */
async function send(app: App, method: string, url: string, headers: Record<string, string> = {}, body?: unknown): Promise<Response> {
  const init: RequestInit = { method, headers: { ...headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await app.request(url, init);
  const copy = res.clone();
  const checked = await validator.check(method, url, res);
  for (const id of checked.operationIds) seen.add(`${id} ${checked.status}`);
  return copy;
}

async function expectStatus(status: number, app: App, method: string, url: string, headers?: Record<string, string>, body?: unknown) {
  const res = await send(app, method, url, headers, body);
  expect(res.status, `${method} ${url}`).toBe(status);
  return res;
}

beforeAll(async () => {
  catalog = await compileExampleCatalog();
  tmp = tempDir('catalog-openapi-state-');
  const source = createFsSnapshotSource(catalog.root);
  signedId = (await source.current())!.id;
  const unsigned = await runCli(['compile', '--source', catalog.source, '--out', catalog.root, '--workers', '1']);
  if (unsigned.code !== 0) throw new Error(`catalog compile failed: ${unsigned.stderr}`);
  const m = appOver(source, 'main');
  main = m.app;
  const keys = createKeyStore(m.state, { clock: testClock() });
  const own = keys.mint({ tenant: 'acme', tier: 'enterprise' });
  partner = { Authorization: `Bearer ${own.key}` };
  ownKeyId = own.keyId;
  otherTenantKeyId = keys.mint({ tenant: 'globex', tier: 'free' }).keyId;
  exhausted = { Authorization: `Bearer ${keys.mint({ tenant: 'acme', tier: 'free' }).key}` };
  await main.request('/v1/catalog/summary', { headers: exhausted }); // its one request of this window
  empty = appOver({ current: async () => null }, 'empty').app;
  failing = appOver(failingReads(source), 'failing').app;
  const c = appOver(source, 'closed');
  closedState = c.app;
  c.state.close(); // the state file fails under the admin routes: 500 internal
});

afterAll(() => {
  for (const s of states) if (s.sqlite.open) s.close();
  tmp?.cleanup();
  catalog?.cleanup();
});

describe('catalog read routes answer as the document says', () => {
  for (const route of readRoutes(partnerRoutes())) {
    const { example } = route;
    const withParam = (name: string, value: string) => {
      const u = new URL(example, 'http://x');
      u.searchParams.set(name, value);
      return `${u.pathname}${u.search}`;
    };

    it(`${route.operationId}: 200 in gzip and plain JSON, HEAD, and 304 on a matching If-None-Match`, async () => {
      await expectStatus(200, main, 'GET', example, partner);
      const zipped = await expectStatus(200, main, 'GET', example, { ...partner, ...gzip });
      await expectStatus(200, main, 'HEAD', example, partner);
      await expectStatus(304, main, 'GET', example, { ...partner, ...gzip, 'If-None-Match': zipped.headers.get('etag')! });
      if (route.list) {
        await expectStatus(200, main, 'GET', withParam('page', '999'), partner);
        const capped = await expectStatus(200, main, 'GET', withParam('limit', '500'), partner);
        expect((await capped.json()).warnings).toContain('limit capped at 100');
      }
    });

    it(`${route.operationId}: every documented error`, async () => {
      await expectStatus(400, main, 'GET', withParam('bogus', '1'), partner);
      await expectStatus(401, main, 'GET', example, route.access === 'public' ? { Authorization: 'Bearer not-a-key' } : {});
      if (route.notFound) await expectStatus(404, main, 'GET', route.notFound, partner);
      await expectStatus(405, main, 'POST', example, partner);
      // An as-of read of a snapshot that is not kept (issue 20).
      if (route.asOf) await expectStatus(410, main, 'GET', withParam('snapshot', '20200101T000000Z-00000000'), partner);
      await expectStatus(429, main, 'GET', example, exhausted);
      await expectStatus(500, failing, 'GET', example, internal);
      await expectStatus(503, empty, 'GET', example, internal);
    });
  }

  it('the public showcase answers without any credential', async () => {
    await expectStatus(200, main, 'GET', '/v1/u/cosmictiger-x');
  });
});

describe('key administration and the audit route answer as the document says', () => {
  it('mintKey: 201, and 400, 401, 403, 405, 429, 500', async () => {
    await expectStatus(201, main, 'POST', '/v1/admin/b2b-keys', internal, { tenant: 'acme', tier: 'standard', expiresAt: '2027-12-31' });
    await expectStatus(400, main, 'POST', '/v1/admin/b2b-keys', internal, { tenant: 'acme', tier: 'gold' });
    await expectStatus(401, main, 'POST', '/v1/admin/b2b-keys', {}, { tenant: 'acme' });
    await expectStatus(403, main, 'POST', '/v1/admin/b2b-keys', partner, { tenant: 'acme' });
    await expectStatus(405, main, 'PUT', '/v1/admin/b2b-keys', internal);
    await expectStatus(429, main, 'POST', '/v1/admin/b2b-keys', exhausted, { tenant: 'acme' });
    await expectStatus(500, closedState, 'POST', '/v1/admin/b2b-keys', internal, { tenant: 'acme' });
  });

  it('listKeys: 200, and 400, 401, 403, 429, 500', async () => {
    await expectStatus(200, main, 'GET', '/v1/admin/b2b-keys?tenant=acme', internal);
    await expectStatus(400, main, 'GET', '/v1/admin/b2b-keys?bogus=1', internal);
    await expectStatus(401, main, 'GET', '/v1/admin/b2b-keys');
    await expectStatus(403, main, 'GET', '/v1/admin/b2b-keys', partner);
    await expectStatus(429, main, 'GET', '/v1/admin/b2b-keys', exhausted);
    await expectStatus(500, closedState, 'GET', '/v1/admin/b2b-keys', internal);
  });

  it('rotateKey and revokeKey: 201/200, and 400 (both), 401, 403, 404, 405, 429, 500', async () => {
    const minted = await (await expectStatus(201, main, 'POST', '/v1/admin/b2b-keys', internal, { tenant: 'acme' })).json();
    const rotated = await (await expectStatus(201, main, 'POST', `/v1/admin/b2b-keys/${minted.keyId}/rotate`, internal, { expiresAt: null })).json();
    await expectStatus(400, main, 'POST', `/v1/admin/b2b-keys/${minted.keyId}/rotate`, internal);
    await expectStatus(200, main, 'DELETE', `/v1/admin/b2b-keys/${rotated.keyId}`, internal);
    await expectStatus(400, main, 'DELETE', '/v1/admin/b2b-keys/not..valid', internal);
    for (const [method, url] of [['POST', '/v1/admin/b2b-keys/ZZZZZZZZ/rotate'], ['DELETE', '/v1/admin/b2b-keys/ZZZZZZZZ']]) {
      await expectStatus(401, main, method, url);
      await expectStatus(403, main, method, url, partner);
      await expectStatus(404, main, method, url, internal);
      await expectStatus(429, main, method, url, exhausted);
      await expectStatus(500, closedState, method, url, internal);
    }
    await expectStatus(405, main, 'GET', '/v1/admin/b2b-keys/ZZZZZZZZ/rotate', internal);
    await expectStatus(405, main, 'GET', '/v1/admin/b2b-keys/ZZZZZZZZ', internal);
  });

  it('getKeyAudit: 200 for the own tenant and the internal key, and 400, 401, 403, 404, 405, 429, 500', async () => {
    const url = `/v1/admin/b2b-keys/${ownKeyId}/audit`;
    await expectStatus(200, main, 'GET', `${url}?limit=2`, partner);
    await expectStatus(200, main, 'GET', `${url}?since=2026-11-20`, internal);
    await expectStatus(400, main, 'GET', `${url}?since=yesterday`, partner);
    await expectStatus(401, main, 'GET', url);
    const session = signSessionCookie(SESSION_SECRET, { sub: 'user-1', exp: Math.floor(T0 / 1000) + 3600 });
    await expectStatus(403, main, 'GET', url, { Cookie: `catalog_session=${session}` });
    await expectStatus(404, main, 'GET', `/v1/admin/b2b-keys/${otherTenantKeyId}/audit`, partner);
    await expectStatus(405, main, 'POST', url, internal);
    await expectStatus(429, main, 'GET', url, exhausted);
    await expectStatus(500, closedState, 'GET', url, internal);
  });
});

describe('webhook routes answer as the document says', () => {
  const hook = { tenant: 'acme', url: 'https://hooks.acme.example/catalog' };
  it('createWebhook and listWebhooks: 201/200, and 400, 401, 403, 405, 429, 500', async () => {
    await expectStatus(201, main, 'POST', '/v1/admin/webhooks', internal, { ...hook, description: 'importer' });
    await expectStatus(400, main, 'POST', '/v1/admin/webhooks', internal, { ...hook, url: 'http://hooks.acme.example/' });
    await expectStatus(200, main, 'GET', '/v1/admin/webhooks?tenant=acme', internal);
    await expectStatus(400, main, 'GET', '/v1/admin/webhooks?bogus=1', internal);
    for (const [method, body] of [['POST', hook], ['GET', undefined]] as const) {
      await expectStatus(401, main, method, '/v1/admin/webhooks', {}, body);
      await expectStatus(403, main, method, '/v1/admin/webhooks', partner, body);
      await expectStatus(429, main, method, '/v1/admin/webhooks', exhausted, body);
      await expectStatus(500, closedState, method, '/v1/admin/webhooks', internal, body);
    }
    await expectStatus(405, main, 'PUT', '/v1/admin/webhooks', internal);
  });

  it('rotateWebhookSecret and deleteWebhook: 201/200, and 400, 401, 403, 404, 405, 429, 500', async () => {
    const made = await (await expectStatus(201, main, 'POST', '/v1/admin/webhooks', internal, hook)).json();
    await expectStatus(201, main, 'POST', `/v1/admin/webhooks/${made.endpointId}/rotate-secret`, internal);
    await expectStatus(200, main, 'DELETE', `/v1/admin/webhooks/${made.endpointId}`, internal);
    const unknown = '/v1/admin/webhooks/whe_ZZZZZZZZZZZZZZZZ';
    for (const [method, url] of [['POST', `${unknown}/rotate-secret`], ['DELETE', unknown]]) {
      await expectStatus(400, main, method, url.replace('whe_ZZZZZZZZZZZZZZZZ', 'not-an-id'), internal);
      await expectStatus(401, main, method, url);
      await expectStatus(403, main, method, url, partner);
      await expectStatus(404, main, method, url, internal);
      await expectStatus(429, main, method, url, exhausted);
      await expectStatus(500, closedState, method, url, internal);
    }
    await expectStatus(405, main, 'GET', `${unknown}/rotate-secret`, internal);
    await expectStatus(405, main, 'GET', unknown, internal);
  });

  it('listMyWebhooks and listMyWebhookDeliveries: 200, and 400, 401, 403, 405, 429', async () => {
    const session = signSessionCookie(SESSION_SECRET, { sub: 'user-1', exp: Math.floor(T0 / 1000) + 3600 });
    for (const url of ['/v1/webhooks', '/v1/webhooks/deliveries']) {
      await expectStatus(200, main, 'GET', `${url}?limit=2`, partner);
      await expectStatus(400, main, 'GET', `${url}?bogus=1`, partner);
      await expectStatus(401, main, 'GET', url);
      await expectStatus(403, main, 'GET', url, { Cookie: `catalog_session=${session}` });
      await expectStatus(405, main, 'POST', url, partner);
      await expectStatus(429, main, 'GET', url, exhausted);
    }
    await expectStatus(200, main, 'GET', '/v1/webhooks/deliveries?status=failed', partner);
  });
});

describe('snapshot, bulk and mirror routes answer as the document says', () => {
  const PRUNED = '20200101T000000Z-00000000';
  const withQuery = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;

  /** 400 (an unknown parameter), 401, 405, 410 (a pruned pin), 429, 500 (reads fail), 503 (nothing published). */
  async function pinnedErrors(url: string) {
    await expectStatus(400, main, 'GET', withQuery(url, 'bogus=1'), partner);
    await expectStatus(401, main, 'GET', url);
    await expectStatus(405, main, 'POST', url, partner);
    await expectStatus(410, main, 'GET', withQuery(url, `snapshot=${PRUNED}`), partner);
    await expectStatus(429, main, 'GET', url, exhausted);
    await expectStatus(500, failing, 'GET', url, internal);
    await expectStatus(503, empty, 'GET', url, internal);
  }

  /** 200 and HEAD, 304 on its ETag. */
  async function reads(url: string) {
    const res = await expectStatus(200, main, 'GET', url, partner);
    await expectStatus(200, main, 'HEAD', url, partner);
    await expectStatus(304, main, 'GET', url, { ...partner, 'If-None-Match': res.headers.get('etag')! });
    return res;
  }

  /** A download: 206 for a range (with a matching If-Range too), 200 whole when If-Range names another file, 416 past the end. */
  async function ranges(url: string) {
    const whole = await reads(url);
    const etag = whole.headers.get('etag')!;
    const size = Number(whole.headers.get('content-length'));
    const part = await expectStatus(206, main, 'GET', url, { ...partner, Range: 'bytes=10-' });
    expect(part.headers.get('content-range')).toBe(`bytes 10-${size - 1}/${size}`);
    await expectStatus(206, main, 'GET', url, { ...partner, Range: 'bytes=0-9', 'If-Range': etag });
    await expectStatus(200, main, 'GET', url, { ...partner, Range: 'bytes=0-9', 'If-Range': `"${'0'.repeat(64)}"` });
    const past = await expectStatus(416, main, 'GET', url, { ...partner, Range: `bytes=${size}-` });
    expect(past.headers.get('content-range')).toBe(`bytes */${size}`);
  }

  it('getSnapshot: 200, HEAD, 304, a pinned older snapshot, and every documented error', async () => {
    const current = await (await reads('/v1/snapshot')).json();
    expect(current.data.previous).toBe(signedId);
    expect(current.data.manifest.signed).toBe(false);
    const pinned = await (await expectStatus(200, main, 'GET', `/v1/snapshot?snapshot=${signedId}`, partner)).json();
    expect(pinned.data.manifest.signed).toBe(true);
    await expectStatus(400, main, 'GET', '/v1/snapshot?snapshot=yesterday', partner);
    await pinnedErrors('/v1/snapshot');
  });

  it('listSnapshots and getSnapshotFeed: 200, HEAD, 304, a second page, and every documented error', async () => {
    for (const url of ['/v1/snapshots', '/v1/snapshot/feed']) {
      await reads(url);
      await expectStatus(400, main, 'GET', withQuery(url, 'bogus=1'), partner);
      await expectStatus(401, main, 'GET', url);
      await expectStatus(405, main, 'POST', url, partner);
      await expectStatus(429, main, 'GET', url, exhausted);
      await expectStatus(500, failing, 'GET', url, internal);
      await expectStatus(503, empty, 'GET', url, internal);
    }
    const second = await (await expectStatus(200, main, 'GET', '/v1/snapshots?limit=1&page=2', partner)).json();
    expect(second.data.map((s: { snapshotId: string }) => s.snapshotId)).toEqual([signedId]);
  });

  it('getSnapshotManifest: 200, 206, 304, 416 and every documented error', async () => {
    await ranges('/v1/snapshot/manifest');
    await pinnedErrors('/v1/snapshot/manifest');
  });

  it('getSnapshotSignature: 200 for the signed snapshot, 206, 304, 416; 404 for the unsigned one; every documented error', async () => {
    await ranges(`/v1/snapshot/signature?snapshot=${signedId}`);
    await expectStatus(404, main, 'GET', '/v1/snapshot/signature', partner);
    await pinnedErrors('/v1/snapshot/signature');
  });

  it('getSnapshotChanges: 200 since the older snapshot and since itself, HEAD, 304, 410 for a pruned since, every documented error', async () => {
    await reads(`/v1/snapshot/changes?since=${signedId}`);
    await expectStatus(200, main, 'GET', `/v1/snapshot/changes?since=${signedId}&snapshot=${signedId}`, partner);
    await expectStatus(400, main, 'GET', '/v1/snapshot/changes', partner);
    await expectStatus(410, main, 'GET', `/v1/snapshot/changes?since=${PRUNED}`, partner);
    await pinnedErrors(`/v1/snapshot/changes?since=${signedId}`);
  });

  it('getPublicKey: 200 with its fingerprint, HEAD, 304; 404 when the server publishes none; 400, 401, 405, 429', async () => {
    const res = await reads('/v1/snapshot/public-key');
    expect(res.headers.get('x-key-fingerprint')).toMatch(/^sha256:[0-9a-f]{64}$/);
    await expectStatus(404, empty, 'GET', '/v1/snapshot/public-key', internal);
    await expectStatus(400, main, 'GET', '/v1/snapshot/public-key?snapshot=x', partner);
    await expectStatus(401, main, 'GET', '/v1/snapshot/public-key');
    await expectStatus(405, main, 'POST', '/v1/snapshot/public-key', partner);
    await expectStatus(429, main, 'GET', '/v1/snapshot/public-key', exhausted);
  });

  it('getSnapshotObject: 200 (gzip bytes), HEAD, 304; 400 for a key that is not a manifest key, 404 for one not in the snapshot; every documented error', async () => {
    const url = '/v1/snapshot/objects/v1/cards/OP01-001/30d.json.gz';
    await reads(url);
    await expectStatus(400, main, 'GET', '/v1/snapshot/objects/v1/cards/OP01-001/30d.txt', partner);
    // As generated clients send the path parameter: its slashes percent-encoded.
    await reads(`/v1/snapshot/objects/${encodeURIComponent('v1/cards/OP01-001/30d.json.gz')}`);
    await expectStatus(404, main, 'GET', '/v1/snapshot/objects/v1/cards/OP99-999/30d.json.gz', partner);
    await pinnedErrors(url);
  });

  it('listBulkFiles: 200, HEAD, 304 and every documented error', async () => {
    await reads('/v1/bulk');
    await pinnedErrors('/v1/bulk');
  });

  it('getBulkFile: 200, 206, 304, 416; 400 for a bad name, 404 for an unknown one; every documented error', async () => {
    await ranges('/v1/bulk/sets');
    await expectStatus(400, main, 'GET', '/v1/bulk/Not_A_Name', partner);
    await expectStatus(404, main, 'GET', '/v1/bulk/nothing', partner);
    await pinnedErrors('/v1/bulk/sets');
  });

  it('getSnapshotPack and getSnapshotFile: 200, 206, 304, 416; 400 for a malformed name, 404 for one the manifest does not list; every documented error', async () => {
    const header = JSON.parse(readFileSync(join(catalog.root, 'current', 'manifest.ndjson'), 'utf8').split('\n')[0]) as ManifestHeader;
    const pack = `/v1/snapshot/packs/${header.packs![0].sha256}`;
    await ranges(pack);
    await expectStatus(400, main, 'GET', '/v1/snapshot/packs/not-a-hash', partner);
    await expectStatus(404, main, 'GET', `/v1/snapshot/packs/${'0'.repeat(64)}`, partner);
    await pinnedErrors(pack);
    await ranges('/v1/snapshot/files/objects.sqlite');
    await expectStatus(400, main, 'GET', '/v1/snapshot/files/.hidden', partner);
    await expectStatus(404, main, 'GET', '/v1/snapshot/files/manifest.ndjson', partner);
    await pinnedErrors('/v1/snapshot/files/objects.sqlite');
  });
});

describe('health endpoints answer as the document says', () => {
  it('getHealth and getReady: 200 and HEAD without a credential; getReady 503 before the first publish; other methods 405', async () => {
    for (const url of ['/healthz', '/readyz']) {
      await expectStatus(200, main, 'GET', url);
      await expectStatus(200, main, 'HEAD', url);
      await expectStatus(405, main, 'POST', url);
    }
    expect(await (await expectStatus(503, empty, 'GET', '/readyz')).json()).toEqual({ status: 'not_ready' });
    await expectStatus(200, empty, 'GET', '/healthz');
  });
});

describe('paths outside the document', () => {
  it('an unknown /v1 path is 401 without a key and 404 with one; a path outside /v1 is 404', async () => {
    await expectStatus(401, main, 'GET', '/v1/nothing-here');
    await expectStatus(404, main, 'GET', '/v1/nothing-here', partner);
    await expectStatus(404, main, 'GET', '/elsewhere');
  });
});

describe('GET /openapi.json answers as the document says', () => {
  it('200 plain and gzip, HEAD, 304 and 405', async () => {
    await expectStatus(200, main, 'GET', '/openapi.json');
    const zipped = await expectStatus(200, main, 'GET', '/openapi.json', gzip);
    await expectStatus(200, main, 'HEAD', '/openapi.json');
    await expectStatus(304, main, 'GET', '/openapi.json', { ...gzip, 'If-None-Match': zipped.headers.get('etag')! });
    await expectStatus(405, main, 'POST', '/openapi.json');
  });
});

describe('GET /docs and its script answer as the document says', () => {
  it('200 plain and gzip, HEAD, 304 and 405, without a credential', async () => {
    for (const url of ['/docs', '/docs/redoc.standalone.js']) {
      await expectStatus(200, main, 'GET', url);
      const zipped = await expectStatus(200, main, 'GET', url, gzip);
      await expectStatus(200, main, 'HEAD', url);
      await expectStatus(304, main, 'GET', url, { ...gzip, 'If-None-Match': zipped.headers.get('etag')! });
      await expectStatus(405, main, 'POST', url);
    }
  });
});

describe('coverage', () => {
  it('when every test above ran, then every documented status of every operation was sent and validated', () => {
    const missing: string[] = [];
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item) as { operationId: string; responses: Record<string, unknown> }[]) {
        for (const status of Object.keys(op.responses)) {
          const key = `${op.operationId} ${status}`;
          if (!seen.has(key) && !UNREACHABLE.has(key)) missing.push(key);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
