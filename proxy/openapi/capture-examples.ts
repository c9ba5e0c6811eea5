/**
 * Captures the document's examples: real answers of the real app (createApp over a throwaway
 * SQLite state file) for a compiled snapshot root, one per operation and one per error status.
 * Used by `npm run openapi` to write examples.json and by the test that checks the committed file
 * still equals a fresh capture. The root holds the example catalog compiled twice with one price
 * changed in between (example-price-change.ts), so the changes example runs `since` the previous
 * snapshot and lists real keys.
 *
 * The clock is fixed, so timestamps and Retry-After are the same on every run. What is random by
 * design (request ids, minted keys and their IDs, snapshot ids in audit rows, measured durations)
 * is replaced with fixed values by `stabilize`, so the document does not change from run to run.
 * The snapshots are compiled at a real time, so their ids, the current one's creation time and the
 * manifest's SHA-256 (the manifest names both ids) differ per compile too: `pinSnapshot` replaces
 * them, and re-signs the signature example over the replaced values with the example key, so it
 * still verifies.
 */
import { createHash, randomBytes, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createKeyStore } from '../keys/store.js';
import { openStateDb } from '../state/open.js';
import { createSqliteWebhookStore } from '../webhooks/sqlite-store.js';
import { KEY_PATTERN } from '../keys/format.js';
import { createFsSnapshotSource } from '../../snapshots/store/fs.js';
import type { SnapshotReader, SnapshotSource } from '../../snapshots/store/types.js';
import { signManifest, type ManifestSignature } from '../../snapshots/signature.js';
import { createdAtOf } from '../snapshot-files/snapshot-list.js';
import { exampleSigningKeys } from './example-signing-key.js';
import { NOT_READY_EXAMPLE } from './routes-snapshot.js';
import { EXAMPLE_CATALOG, type CapturedExample, type OpenApiExamples } from './examples.js';
import { partnerRoutes } from '../route-table/table.js';
import { readRoutes } from './table-paths.js';

/** 30 s into a rate window (the 429 example's Retry-After reads 29: a second passes before it). */
export const EXAMPLE_CLOCK_MS = Date.parse('2026-11-20T10:00:30.000Z');
const EXAMPLE_REQUEST_ID = '2b7809ee-a149-4ec0-a969-f18cd4a7e5af';
const EXAMPLE_SNAPSHOT_ID = '20261120T020000Z-0c1a2b3d';
/** Stands for the first compile of the example catalog (the current snapshot's `previous`). */
const EXAMPLE_PREVIOUS_SNAPSHOT_ID = '20261119T020000Z-5e6f7a8b';
const EXAMPLE_KEY_IDS = ['Ab12Cd34', 'Ef56Gh78', 'Ij90Kl12', 'Mn34Op56'];
const EXAMPLE_ENDPOINT_ID = 'whe_Qr78St90Uv12Wx34';
const EXAMPLE_DELIVERY_ID = 'whd_Yz56Ab78Cd90Ef12Gh34Ij';
const EXAMPLE_WEBHOOK_SECRET = `whsec_${'x'.repeat(43)}`;
/** Stands for the manifest's SHA-256, which names the snapshot id and so differs per compile. */
const EXAMPLE_MANIFEST_SHA256 = createHash('sha256').update('example manifest').digest('hex');

type Caller = Record<string, string>;

interface Harness {
  call(method: string, path: string, headers?: Caller, body?: unknown): Promise<CapturedExample>;
}

function harness(snapshots: SnapshotSource, internalKey: string, dir: string, name: string, clock: () => number, publicKey: KeyObject) {
  const state = openStateDb(join(dir, `${name}.sqlite`));
  const app = createApp({
    db: state,
    config: loadConfig({ CATALOG_INTERNAL_KEY: internalKey, CATALOG_TIER_LIMITS: 'free=1' }),
    snapshots,
    clock,
    publicKey,
    logger: { error: () => undefined, info: () => undefined },
  });
  const h: Harness = {
    async call(method, path, headers = {}, body) {
      const init: RequestInit = { method, headers: { ...headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) } };
      if (body !== undefined) init.body = JSON.stringify(body);
      const res = await app.request(path, init);
      // JSON bodies as values; the manifest (NDJSON) and the public key (PEM) as their text.
      const json = /^application\/json\b/.test(res.headers.get('content-type') ?? '');
      return { request: `${method} ${path}`, status: res.status, body: json ? await res.json() : await res.text() };
    },
  };
  return { h, keys: createKeyStore(state, { clock }), webhooks: createSqliteWebhookStore(state, { clock }), close: () => state.close() };
}

function expect(example: CapturedExample, status: number): CapturedExample {
  if (example.status !== status) {
    throw new Error(`example request ${example.request} answered ${example.status}, expected ${status}: ${JSON.stringify(example.body)}`);
  }
  return example;
}

/** The snapshots of `source`, whose objects and search index cannot be read: a disk fault (500 `internal`). */
export function failingReads(source: SnapshotSource): SnapshotSource {
  const fail = async (): Promise<never> => {
    throw new Error('read failed');
  };
  const broken = (reader: SnapshotReader | null): SnapshotReader | null =>
    reader === null
      ? null
      : {
          id: reader.id,
          get: fail,
          searchDbPath: fail,
          file: fail,
          entries: () => ({ [Symbol.asyncIterator]: () => ({ next: fail }) }),
        };
  return {
    async current() {
      return broken(await source.current());
    },
    async open(id) {
      return broken(await source.open(id));
    },
  };
}

export async function captureExamples(snapshotRoot: string): Promise<OpenApiExamples> {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-openapi-'));
  // A throwaway operator secret: the examples never show it.
  const internal = { 'X-Service-Internal-Key': randomBytes(24).toString('hex') };
  const source = createFsSnapshotSource(snapshotRoot);
  // Moved on by a second between the two mints, so the key list has one order (by creation time).
  let now = EXAMPLE_CLOCK_MS;
  const clock = () => now;
  const secret = internal['X-Service-Internal-Key'];
  const signing = exampleSigningKeys();
  const main = harness(source, secret, dir, 'main', clock, signing.publicKey);
  const empty = harness({ current: async () => null, open: async () => null }, secret, dir, 'empty', clock, signing.publicKey);
  const broken = harness(failingReads(source), secret, dir, 'broken', clock, signing.publicKey);
  try {
    const { h } = main;
    const operations: Record<string, CapturedExample> = {};
    const errors: Record<string, CapturedExample> = {};

    const mint = expect(await h.call('POST', '/v1/admin/b2b-keys', internal, { tenant: 'acme', tier: 'standard', expiresAt: '2027-12-31' }), 201);
    operations.mintKey = mint;
    const minted = mint.body as { key: string; keyId: string };
    const partner = { Authorization: `Bearer ${minted.key}` };

    for (const route of readRoutes(partnerRoutes())) operations[route.operationId] = expect(await h.call('GET', route.example, partner), 200);
    const snapshot = expect(await h.call('GET', '/v1/snapshot', partner), 200);
    operations.getSnapshot = snapshot;
    const { snapshotId, previous, manifest } = (snapshot.body as { data: { snapshotId: string; previous: string | null; manifest: { sha256: string } } }).data;
    if (previous === null) throw new Error(`the example snapshot root ${snapshotRoot} holds one compile: compile the example catalog twice (scripts/openapi.mjs)`);
    // A packed snapshot's manifest is its header line alone (docs/snapshots.md), small enough to show whole.
    operations.getSnapshotManifest = expect(await h.call('GET', '/v1/snapshot/manifest', partner), 200);
    operations.getSnapshotSignature = expect(await h.call('GET', '/v1/snapshot/signature', partner), 200);
    operations.getSnapshotChanges = expect(await h.call('GET', `/v1/snapshot/changes?since=${previous}`, partner), 200);
    operations.getPublicKey = expect(await h.call('GET', '/v1/snapshot/public-key', partner), 200);
    operations.listBulkFiles = expect(await h.call('GET', '/v1/bulk', partner), 200);
    operations.listSnapshots = expect(await h.call('GET', '/v1/snapshots', partner), 200);
    operations.getSnapshotFeed = expect(await h.call('GET', '/v1/snapshot/feed', partner), 200);
    operations.getDocs = expect(await h.call('GET', '/docs'), 200);
    operations.getHealth = expect(await h.call('GET', '/healthz'), 200);
    operations.getReady = expect(await h.call('GET', '/readyz'), 200);
    operations[NOT_READY_EXAMPLE] = expect(await empty.h.call('GET', '/readyz'), 503);
    operations.getKeyAudit = expect(await h.call('GET', `/v1/admin/b2b-keys/${minted.keyId}/audit?limit=2`, partner), 200);

    errors[400] = expect(await h.call('GET', '/v1/cards/OP01-001?range=2y', partner), 400);
    errors[401] = expect(await h.call('GET', '/v1/cards/OP01-001'), 401);
    errors[403] = expect(await h.call('GET', '/v1/admin/b2b-keys', partner), 403);
    errors[404] = expect(await h.call('GET', '/v1/cards/OP99-999', partner), 404);
    errors[405] = expect(await h.call('POST', '/v1/cards/OP01-001', partner), 405);
    now += 1000;
    const free = { Authorization: `Bearer ${main.keys.mint({ tenant: 'acme', tier: 'free' }).key}` };
    expect(await h.call('GET', '/v1/catalog/summary', free), 200);
    errors[410] = expect(await h.call('GET', '/v1/snapshot?snapshot=20200101T000000Z-00000000', partner), 410);
    errors[416] = expect(await h.call('GET', '/v1/bulk/sets', { ...partner, Range: 'bytes=99999999-' }), 416);
    errors[429] = expect(await h.call('GET', '/v1/catalog/summary', free), 429);
    errors[500] = expect(await broken.h.call('GET', '/v1/cards/OP01-001', internal), 500);
    errors[503] = expect(await empty.h.call('GET', '/v1/catalog/summary', internal), 503);

    operations.listKeys = expect(await h.call('GET', '/v1/admin/b2b-keys?tenant=acme', internal), 200);
    const rotate = expect(await h.call('POST', `/v1/admin/b2b-keys/${minted.keyId}/rotate`, internal, {}), 201);
    operations.rotateKey = rotate;
    operations.revokeKey = expect(await h.call('DELETE', `/v1/admin/b2b-keys/${(rotate.body as { keyId: string }).keyId}`, internal), 200);

    // Webhooks: an endpoint, the current snapshot announced to it (what the sender does on a
    // publish), then the partner's reads and the operator's rotate and delete.
    const hook = expect(await h.call('POST', '/v1/admin/webhooks', internal, { tenant: 'acme', url: 'https://hooks.acme.example/catalog', description: 'snapshot importer' }), 201);
    operations.createWebhook = hook;
    // The first key was rotated above: the partner reads with a live key of the same tenant.
    const acme = { Authorization: `Bearer ${main.keys.mint({ tenant: 'acme', tier: 'standard' }).key}` };
    const endpointId = (hook.body as { endpointId: string }).endpointId;
    main.webhooks.announce(snapshotId, JSON.stringify((operations.listSnapshots.body as { data: unknown[] }).data[0]), now);
    operations.listWebhooks = expect(await h.call('GET', '/v1/admin/webhooks?tenant=acme', internal), 200);
    operations.listMyWebhooks = expect(await h.call('GET', '/v1/webhooks', acme), 200);
    operations.listMyWebhookDeliveries = expect(await h.call('GET', '/v1/webhooks/deliveries?status=pending', acme), 200);
    operations.rotateWebhookSecret = expect(await h.call('POST', `/v1/admin/webhooks/${endpointId}/rotate-secret`, internal), 201);
    operations.deleteWebhook = expect(await h.call('DELETE', `/v1/admin/webhooks/${endpointId}`, internal), 200);

    const pinned = pinSnapshot({ catalog: structuredClone(EXAMPLE_CATALOG), operations, errors }, snapshotId, previous, manifest.sha256);
    const signature = pinned.operations.getSnapshotSignature.body as ManifestSignature;
    signature.signature = signManifest(signing.privateKey, signature).signature;
    return stabilize(pinned);
  } finally {
    main.close();
    empty.close();
    broken.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Replaces the ids and creation times of both snapshots and the manifest hash, wherever they occur
 * (see the header comment).
 */
function pinSnapshot(examples: OpenApiExamples, snapshotId: string, previousId: string, manifestSha256: string): OpenApiExamples {
  // The previous snapshot's creation time is in the snapshot list and the feed; when both compiles
  // ran within one second it is the current one's, and shows as that.
  const text = JSON.stringify(examples)
    .replaceAll(createdAtOf(snapshotId), createdAtOf(EXAMPLE_SNAPSHOT_ID))
    .replaceAll(createdAtOf(previousId), createdAtOf(EXAMPLE_PREVIOUS_SNAPSHOT_ID))
    .replaceAll(snapshotId, EXAMPLE_SNAPSHOT_ID)
    .replaceAll(previousId, EXAMPLE_PREVIOUS_SNAPSHOT_ID)
    .replaceAll(manifestSha256, EXAMPLE_MANIFEST_SHA256);
  return JSON.parse(text) as OpenApiExamples;
}

/** Replaces the values that differ on every run (see the header comment) with fixed ones. */
export function stabilize(examples: OpenApiExamples): OpenApiExamples {
  const keyIds = new Map<string, string>();
  const stableKeyId = (id: string) => {
    if (!keyIds.has(id)) {
      const stable = EXAMPLE_KEY_IDS[keyIds.size];
      if (stable === undefined) throw new Error(`more than ${EXAMPLE_KEY_IDS.length} key IDs in the examples: add fixed ones`);
      keyIds.set(id, stable);
    }
    return keyIds.get(id)!;
  };
  const walk = (value: unknown, field: string | null): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v, null));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    }
    if (typeof value !== 'string' && field !== 'durationMs') return value;
    switch (field) {
      case 'requestId': return EXAMPLE_REQUEST_ID;
      case 'snapshotId': return EXAMPLE_SNAPSHOT_ID;
      case 'durationMs': return 1;
      case 'keyId': case 'apiKeyId': case 'replacedBy': return stableKeyId(value as string);
      case 'endpointId': return EXAMPLE_ENDPOINT_ID;
      case 'deliveryId': return EXAMPLE_DELIVERY_ID;
      case 'secret': return EXAMPLE_WEBHOOK_SECRET;
      case 'key': return KEY_PATTERN.test(value as string) ? `rxk_${stableKeyId((value as string).slice(4, 12))}${'x'.repeat(24)}` : value;
      case 'request': case 'path': return (value as string)
        .replace(/\/b2b-keys\/([0-9A-Za-z]{8})/, (_, id: string) => `/b2b-keys/${stableKeyId(id)}`)
        .replace(/\/webhooks\/whe_[0-9A-Za-z_-]{16}/, `/webhooks/${EXAMPLE_ENDPOINT_ID}`);
      default: return value;
    }
  };
  return walk(examples, null) as OpenApiExamples;
}
