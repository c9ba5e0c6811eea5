/**
 * The typed client against a real server: `catalog serve` (the real binary) on the example catalog
 * on a free loopback port (test/helpers/catalog-server.ts), every partner operation of the served
 * OpenAPI document called through the client. The operations are read from docs/openapi.json, so a
 * route added to the document without a call here fails `every partner operation has a client call`;
 * a route whose answer changes shape fails its call's checks (and `client-types.test.ts` the type
 * check of these calls against freshly generated types).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../../../test/helpers/cli.js';
import { serveExampleCatalog, type ServedCatalog } from '../../../test/helpers/catalog-server.js';
import { CatalogApiError, createCatalogClient, type CatalogClient } from '../src/index.js';

interface Operation { operationId: string; method: string; path: string }
const DOC = JSON.parse(readFileSync(join(REPO, 'docs', 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { operationId: string; security?: Record<string, unknown>[] }>>;
};
/** Every operation a partner can call: all but the operator's (the internal key's alone). */
const PARTNER_OPERATIONS: Operation[] = Object.entries(DOC.paths).flatMap(([path, item]) => Object.entries(item)
  .filter(([, op]) => !(op.security ?? []).length || !op.security!.every((s) => Object.keys(s).join() === 'internalKey'))
  .map(([method, op]) => ({ operationId: op.operationId, method: method.toUpperCase(), path })));

let served: ServedCatalog;
let api: CatalogClient;
/** The method and path of each request the client sent, to check a call hits its operation's path. */
const sent: { method: string; path: string }[] = [];

beforeAll(async () => {
  served = await serveExampleCatalog();
  api = createCatalogClient({ baseUrl: served.url, key: served.key });
  api.use({ onRequest({ request }) { sent.push({ method: request.method, path: new URL(request.url).pathname }); } });
}, 120_000);
afterAll(async () => served?.stop());

const ok = <T>(r: { data?: T; response: Response }): T => {
  expect(r.response.status).toBe(200);
  expect(r.data).toBeDefined();
  return r.data!;
};

/** What a mirror needs from the snapshot: its ids, a pack and a file of its manifest. */
async function snapshotFacts() {
  const snapshot = ok(await api.GET('/v1/snapshot')).data;
  const manifest = ok(await api.GET('/v1/snapshot/manifest', { parseAs: 'text' }));
  const header = JSON.parse(manifest.split('\n')[0]) as { packs: { sha256: string }[]; files: { name: string }[] };
  return { snapshot, pack: header.packs[0].sha256, file: header.files[0].name };
}

/** One typed call per partner operation, with a check of what it answered. */
const CALLS: Record<string, () => Promise<void>> = {
  async getCard() {
    const card = ok(await api.GET('/v1/cards/{id}', { params: { path: { id: 'OP01-001' }, query: { range: '30d' } } }));
    expect(card.kind).toBe('card');
    expect(card.data.id).toBe('OP01-001');
  },
  async getFigure() {
    expect(ok(await api.GET('/v1/figures/{id}', { params: { path: { id: 'fs-0001-01' } } })).data.id).toBe('fs-0001-01');
  },
  async listFigureSeries() {
    const page = ok(await api.GET('/v1/figures/series/{id}', { params: { path: { id: 'fs-0001' }, query: { limit: 2 } } }));
    expect(page.data).toHaveLength(2);
    expect(page.page.hasMore).toBe(true);
  },
  async getOracle() {
    const id = '01df92ef-8f39-42c3-9b2c-e8e90044978f';
    expect(ok(await api.GET('/v1/oracle/{id}', { params: { path: { id } } })).data.id).toBe(id);
  },
  async listSet() {
    const page = ok(await api.GET('/v1/sets/{game}/{setCode}', { params: { path: { game: 'mtg', setCode: 'was' }, query: { limit: 2, page: 2 } } }));
    expect(page.page.page).toBe(2);
    expect(page.data).toHaveLength(2);
  },
  async listArtist() {
    expect(ok(await api.GET('/v1/artists/{slug}', { params: { path: { slug: 'lars-bronte' }, query: { limit: 2 } } })).data.length).toBeGreaterThan(0);
  },
  async getPullStats() {
    expect(ok(await api.GET('/v1/series/{id}/pull-stats', { params: { path: { id: 'fs-0001' } } })).kind).toBe('pullStats');
  },
  async getCatalogSummary() {
    expect(ok(await api.GET('/v1/catalog/summary')).data.cards.total).toBe(300);
  },
  async listTrending() {
    expect(ok(await api.GET('/v1/trending', { params: { query: { game: 'mtg', limit: 2 } } })).kind).toBe('trending');
  },
  async listRecent() {
    expect(ok(await api.GET('/v1/recent', { params: { query: { limit: 2 } } })).data).toHaveLength(2);
  },
  async getDiscoverSets() {
    expect(ok(await api.GET('/v1/discover/sets', { params: { query: { limit: 2 } } })).kind).toBe('discoverSets');
  },
  async getDiscoverUsers() {
    expect(ok(await api.GET('/v1/discover/users', { params: { query: { limit: 2 } } })).kind).toBe('discoverUsers');
  },
  async getDiscoverBinders() {
    expect(ok(await api.GET('/v1/discover/binders', { params: { query: { limit: 2 } } })).kind).toBe('discoverBinders');
  },
  async getDiscoverActivity() {
    expect(ok(await api.GET('/v1/discover/activity', { params: { query: { limit: 2 } } })).kind).toBe('discoverActivity');
  },
  async getDiscoverSparklines() {
    expect(ok(await api.GET('/v1/discover/sparklines', { params: { query: { limit: 2 } } })).kind).toBe('discoverSparklines');
  },
  async search() {
    const found = ok(await api.GET('/v1/search', { params: { query: { q: 'wurm', limit: 3 } } }));
    expect(found.data.length).toBeGreaterThan(0);
  },
  async getShowcase() {
    // Public: the showcase answers without a key too.
    const anonymous = createCatalogClient({ baseUrl: served.url });
    anonymous.use({ onRequest({ request }) { sent.push({ method: request.method, path: new URL(request.url).pathname }); } });
    expect(ok(await anonymous.GET('/v1/u/{handle}', { params: { path: { handle: 'cosmictiger-x' } } })).data.handle).toBe('cosmictiger-x');
  },
  async listShowcaseBinders() {
    expect(ok(await api.GET('/v1/u/{handle}/binders', { params: { path: { handle: 'cosmictiger-x' } } })).kind).toBe('showcaseBinders');
  },
  async getSnapshot() {
    const snapshot = ok(await api.GET('/v1/snapshot')).data;
    expect(snapshot.previous).not.toBeNull();
    // As-of: the same snapshot by its id.
    expect(ok(await api.GET('/v1/snapshot', { params: { query: { snapshot: snapshot.snapshotId } } })).data.snapshotId).toBe(snapshot.snapshotId);
  },
  async getSnapshotManifest() {
    const text = ok(await api.GET('/v1/snapshot/manifest', { parseAs: 'text' }));
    expect(JSON.parse(text.split('\n')[0])).toMatchObject({ version: 2 });
  },
  async getSnapshotSignature() {
    // Typed as JSON or, for a 206 (Range), the bytes as text: a 200 is the JSON.
    const signature = ok(await api.GET('/v1/snapshot/signature'));
    if (typeof signature === 'string') throw new Error(`the signature came as text: ${signature}`);
    expect(signature.algorithm).toBe('ed25519');
  },
  async getSnapshotChanges() {
    const { snapshot } = await snapshotFacts();
    const changes = ok(await api.GET('/v1/snapshot/changes', { params: { query: { since: snapshot.previous! } } }));
    expect(changes.data.changes.length).toBeGreaterThan(0);
  },
  async getPublicKey() {
    expect(ok(await api.GET('/v1/snapshot/public-key', { parseAs: 'text' }))).toMatch(/^-----BEGIN PUBLIC KEY-----/);
  },
  async getSnapshotObject() {
    // The key's slashes are percent-encoded by the client; the server decodes them once.
    const bytes = ok(await api.GET('/v1/snapshot/objects/{key}', { params: { path: { key: 'v1/cards/OP01-001/30d.json.gz' } }, parseAs: 'arrayBuffer' }));
    expect(new Uint8Array(bytes).subarray(0, 2)).toEqual(new Uint8Array([0x1f, 0x8b]));
  },
  async getSnapshotPack() {
    const { pack } = await snapshotFacts();
    const bytes = ok(await api.GET('/v1/snapshot/packs/{sha256}', { params: { path: { sha256: pack } }, parseAs: 'arrayBuffer' }));
    expect(bytes.byteLength).toBeGreaterThan(0);
  },
  async getSnapshotFile() {
    const { file } = await snapshotFacts();
    expect(ok(await api.GET('/v1/snapshot/files/{name}', { params: { path: { name: file } }, parseAs: 'arrayBuffer' })).byteLength).toBeGreaterThan(0);
  },
  async listSnapshots() {
    const { snapshot } = await snapshotFacts();
    const kept = ok(await api.GET('/v1/snapshots', { params: { query: { limit: 1 } } }));
    expect(kept.data[0].snapshotId).toBe(snapshot.snapshotId);
  },
  async getSnapshotFeed() {
    const { snapshot } = await snapshotFacts();
    expect(ok(await api.GET('/v1/snapshot/feed', { parseAs: 'text' }))).toContain(`<id>urn:catalog-snapshots:${snapshot.snapshotId}</id>`);
  },
  async listBulkFiles() {
    expect(ok(await api.GET('/v1/bulk')).data.files.map((f) => f.name)).toContain('cards');
  },
  async getBulkFile() {
    const bytes = ok(await api.GET('/v1/bulk/{name}', { params: { path: { name: 'sets' } }, parseAs: 'arrayBuffer' }));
    expect(new Uint8Array(bytes).subarray(0, 2)).toEqual(new Uint8Array([0x1f, 0x8b]));
  },
  async getKeyAudit() {
    const rows = ok(await api.GET('/v1/admin/b2b-keys/{id}/audit', { params: { path: { id: served.keyId }, query: { limit: 2 } } }));
    expect(rows.data[0].apiKeyId).toBe(served.keyId);
  },
  async listMyWebhooks() {
    // The served catalog's tenant has no endpoint registered: an empty page of its own endpoints.
    const hooks = ok(await api.GET('/v1/webhooks', { params: { query: { limit: 5 } } }));
    expect(hooks.kind).toBe('webhooks');
    expect(hooks.data).toEqual([]);
  },
  async listMyWebhookDeliveries() {
    const log = ok(await api.GET('/v1/webhooks/deliveries', { params: { query: { status: 'failed' } } }));
    expect(log.kind).toBe('webhookDeliveries');
    expect(log.page?.total).toBe(0);
  },
  async getOpenApi() {
    expect(ok(await api.GET('/openapi.json')).openapi).toBe('3.1.0');
  },
  async getDocs() {
    expect(ok(await api.GET('/docs', { parseAs: 'text' }))).toContain('<redoc spec-url="openapi.json"');
  },
  async getDocsScript() {
    expect(ok(await api.GET('/docs/redoc.standalone.js', { parseAs: 'text' })).length).toBeGreaterThan(100_000);
  },
  async getHealth() {
    expect(ok(await api.GET('/healthz')).status).toBe('ok');
  },
  async getReady() {
    expect(ok(await api.GET('/readyz')).status).toBe('ready');
  },
};

/** `/v1/cards/{id}` → a pattern of its concrete paths (a parameter is one or more segments, encoded). */
const pathPattern = (template: string) => new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`);

describe('the typed client against catalog serve', () => {
  it('every partner operation of the document has a client call, and every call an operation', () => {
    expect(Object.keys(CALLS).sort()).toEqual(PARTNER_OPERATIONS.map((o) => o.operationId).sort());
  });

  for (const op of PARTNER_OPERATIONS) {
    it(`${op.operationId}: ${op.method} ${op.path}`, async () => {
      const call = CALLS[op.operationId];
      if (call === undefined) throw new Error(`no client call for ${op.operationId}: add one to CALLS`);
      const before = sent.length;
      await call();
      // The call's last request is the operation's: the path the document names, its method.
      const last = sent.slice(before).at(-1)!;
      expect(last.method).toBe(op.method);
      expect(last.path).toMatch(pathPattern(op.path));
    });
  }

  it('an error answer rejects with a CatalogApiError carrying the code, message and request id', async () => {
    const missing = await api.GET('/v1/cards/{id}', { params: { path: { id: 'OP99-999' } } }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(CatalogApiError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found' });
    expect((missing as CatalogApiError).requestId).toMatch(/^[0-9a-f-]{36}$/);

    const keyless = createCatalogClient({ baseUrl: served.url });
    await expect(keyless.GET('/v1/catalog/summary')).rejects.toMatchObject({ status: 401, code: 'unauthenticated' });

    const wrongKey = createCatalogClient({ baseUrl: served.url, key: 'rxk_00000000000000000000000000000000' });
    await expect(wrongKey.GET('/v1/catalog/summary')).rejects.toMatchObject({ status: 401, code: 'unauthenticated' });

    // A value the types refuse still reaches the server from untyped code: 400 naming the parameter.
    const bad = await api.GET('/v1/cards/{id}', { params: { path: { id: 'OP01-001' }, query: { range: '2y' as '30d' } } }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 400, code: 'invalid_parameter' });
    expect((bad as CatalogApiError).message).toContain('range');
  });

  it('a 304 is an answer, not an error: If-None-Match with the ETag', async () => {
    const first = await api.GET('/v1/catalog/summary');
    const etag = first.response.headers.get('etag')!;
    const again = await api.GET('/v1/catalog/summary', { headers: { 'If-None-Match': etag } });
    expect(again.response.status).toBe(304);
  });
});
