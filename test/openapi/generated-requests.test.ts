/**
 * The document and the API agree for every generated request: for every operation of the served
 * `/openapi.json`, requests are generated from its parameter and body schemas
 * (helpers/generated-requests.ts) and sent through the real app (real SQLite state, the example
 * catalog compiled by the real binary). Every schema-valid request must get a documented status
 * other than 400; every request with one schema-invalid part must get 400 `invalid_parameter`
 * whose message names that part; every response must match its documented status, headers,
 * content type and body schema (helpers/openapi-validator.ts).
 *
 * Seeded, so a failure reproduces: GENERATED_REQUESTS_SEED=<seed printed with the failure>;
 * GENERATED_REQUESTS_RUNS=<n> for a longer hunt (default 60 per operation).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyStore } from '../../proxy/keys/store.js';
import { buildOpenApiDocument, type OpenApiDocument } from '../../proxy/openapi/document.js';
import { INTERNAL_KEY, T0 } from '../helpers/auth-fixtures.js';
import { exampleApp, type ExampleApp } from '../helpers/example-app.js';
import { createRequestGenerator, operationsOf, type GeneratedRequest } from '../helpers/generated-requests.js';
import { createResponseValidator, type ResponseValidator } from '../helpers/openapi-validator.js';

const SEED = Number(process.env.GENERATED_REQUESTS_SEED ?? 22);
const RUNS = Number(process.env.GENERATED_REQUESTS_RUNS ?? 60);

let world: ExampleApp;
let app: ExampleApp['app'];
let doc: OpenApiDocument;
let validator: ResponseValidator;
let generator: ReturnType<typeof createRequestGenerator>;
/** The operations by id, known before the app serves the document (a test each); the served one must list the same. */
const OPERATION_IDS = operationsOf(buildOpenApiDocument()).map(({ op }) => String(op.operationId));
let keys: KeyStore;
const credentials: Record<string, Record<string, string>> = { internalKey: { 'X-Service-Internal-Key': INTERNAL_KEY } };
const known: Record<string, string[]> = {};
/** A key ID the suite mints afresh for each request that names one (rotating or revoking a shared key would change later answers). */
const FRESH_KEY = 'Fresh000';

beforeAll(async () => {
  world = await exampleApp();
  app = world.app;
  keys = world.keys;
  const partner = keys.mint({ tenant: 'acme', tier: 'enterprise' });
  const other = keys.mint({ tenant: 'globex', tier: 'free' });
  credentials.apiKey = { Authorization: `Bearer ${partner.key}` };
  // The served document, as a partner's tool reads it.
  doc = await (await app.request('/openapi.json')).json() as OpenApiDocument;
  validator = createResponseValidator(doc);
  generator = createRequestGenerator(doc);
  const snapshot = (await (await app.request('/v1/snapshot', { headers: credentials.internalKey })).json()).data;
  // Real values, so valid requests reach real documents too; taken from the document's own examples.
  Object.assign(known, {
    snapshot: [snapshot.id, snapshot.previous], since: [snapshot.previous, snapshot.id],
    name: ['cards', 'figures', 'oracle', 'sets', 'changes'], key: ['v1/cards/OP01-001/30d.json.gz'],
    'getKeyAudit.id': [partner.keyId, other.keyId], 'revokeKey.id': [FRESH_KEY], 'rotateKey.id': [FRESH_KEY],
    tenant: ['acme', 'globex'], expiresAt: ['2027-12-31', '2030-01-01T00:00:00Z'],
  });
  for (const { path, op } of operationsOf(doc)) {
    const example = Object.values((op.responses[200] ?? op.responses[201])?.content ?? {})
      .flatMap((media: any) => Object.values(media.examples ?? {})).map((e: any) => String(e.summary))[0];
    const url = example?.match(/^[A-Z]+ (\S+)/)?.[1];
    if (!url) continue;
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const match = new RegExp(`^${path.replace(/\{\w+\}/g, '([^/?]+)')}(?:\\?|$)`).exec(url);
    names.forEach((name, i) => {
      if (!match || name === 'id' && path.startsWith('/v1/admin')) return;
      (known[name] ??= []).push(decodeURIComponent(match[i + 1]));
    });
  }
});

afterAll(() => world?.cleanup());

/**
 * Rules the document states in words, not in a schema, so a request that breaks one is expected to
 * be refused: an expiry must be in the future, `until` after `since`.
 */
function brokenProseRule(r: GeneratedRequest): string | null {
  const instant = (v: unknown) => Date.parse(/T/.test(String(v)) ? String(v) : `${v}T00:00:00Z`);
  if (typeof r.values.expiresAt === 'string' && instant(r.values.expiresAt) <= T0) return 'expiresAt';
  if (r.values.since !== undefined && r.values.until !== undefined && r.url.includes('/audit')
    && instant(r.values.until) <= instant(r.values.since)) return 'until';
  return null;
}

describe('every generated request gets the answer the document gives it', () => {
  it(`the served document has the ${OPERATION_IDS.length} operations generated for below`, () => {
    expect(operationsOf(doc).map(({ op }) => op.operationId)).toEqual(OPERATION_IDS);
  });

  OPERATION_IDS.forEach((operationId, i) => {
    it(`${operationId}: ${RUNS} generated requests (seed ${SEED})`, async () => {
      const operation = operationsOf(doc)[i];
      const security = operation.op.security as object[];
      const secured = security.length > 0 && !security.some((req) => Object.keys(req).length === 0);
      await fc.assert(
        fc.asyncProperty(generator.requests(operation, credentials, known), async (generated) => {
          const r = { ...generated, url: generated.url };
          if (r.url.includes(FRESH_KEY)) r.url = r.url.replace(FRESH_KEY, keys.mint({ tenant: 'acme', tier: 'free' }).keyId);
          const prose = brokenProseRule(r);
          // One wrong part per request, so the 400 has one parameter to name.
          fc.pre(r.invalid === null || prose === null);
          const invalid = r.invalid ?? prose;
          const res = await app.request(r.url, { method: r.method, headers: r.headers, ...(r.body === undefined ? {} : { body: r.body }) });
          const where = `${operation.op.operationId}: ${r.method} ${r.url}${r.body === undefined ? '' : ` ${r.body}`} (credential ${r.credential}, invalid ${invalid}) → ${res.status}`;
          const text = r.method === 'HEAD' ? '' : await res.clone().text();
          if (r.credential === null && secured) {
            expect(res.status, where).toBe(401);
          } else if (invalid === null) {
            expect(res.status, `${where} ${text}`).not.toBe(400);
          } else {
            expect(res.status, `${where} ${text}`).toBe(400);
            if (r.method !== 'HEAD') {
              const body = JSON.parse(text) as { error: string; message: string };
              expect(body.error, where).toBe('invalid_parameter');
              expect(body.message, where).toMatch(new RegExp(`(^|\\W)${invalid}(\\W|$)`));
            }
          }
          await validator.check(r.method, r.url, res);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      ).catch((err: Error) => {
        const cause = err.cause instanceof Error ? `\n${err.cause.message}` : '';
        throw new Error(`${err.message}${cause}\nReplay: GENERATED_REQUESTS_SEED=${SEED} npx vitest run test/openapi/generated-requests.test.ts`);
      });
    });
  });
});
