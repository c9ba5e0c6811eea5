/**
 * Six places where the OpenAPI document and the API disagreed (issue 22), each checked through the
 * real app (`app.request`, real SQLite state, the example catalog compiled by the real binary):
 * large page/limit numbers, days that do not exist, the date and tenant rules the document states,
 * percent-encoded object keys, and 405 on the health paths (test/proxy/health.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../proxy/openapi/document.js';
import { INTERNAL_KEY } from '../helpers/auth-fixtures.js';
import { exampleApp, type ExampleApp } from '../helpers/example-app.js';

type Json = Record<string, any>;

const doc = buildOpenApiDocument() as Json;
const internal = { 'X-Service-Internal-Key': INTERNAL_KEY };
const json = { ...internal, 'Content-Type': 'application/json' };
let world: ExampleApp;
let app: ExampleApp['app'];
let partner: Record<string, string>;
let keyId: string;

beforeAll(async () => {
  world = await exampleApp();
  app = world.app;
  const minted = world.keys.mint({ tenant: 'acme', tier: 'enterprise' });
  partner = { Authorization: `Bearer ${minted.key}` };
  keyId = minted.keyId;
});

afterAll(() => world?.cleanup());

const withParam = (url: string, name: string, value: string) => {
  const u = new URL(url, 'http://x');
  u.searchParams.set(name, value);
  return `${u.pathname}${u.search}`;
};
const param = (name: string): Json => doc.components.parameters[name];
const call = async (url: string, init: RequestInit = {}) => {
  const res = await app.request(url, init);
  return { status: res.status, body: await res.json() as Json };
};
const expect400 = async (url: string, init: RequestInit, parameter: string) => {
  const { status, body } = await call(url, init);
  expect(status, url).toBe(400);
  expect(body.error).toBe('invalid_parameter');
  expect(body.message).toMatch(new RegExp(`^${parameter} `));
  return body.message as string;
};

describe('1. any page and limit the document allows is taken', () => {
  // Every operation that takes `page`, by the request its captured example made.
  const lists = Object.values(doc.paths).flatMap((item: Json) => Object.values(item))
    .filter((op: Json) => (op.parameters ?? []).some((p: Json) => p.$ref === '#/components/parameters/Page'))
    .map((op: Json) => String((Object.values(op.responses[200].content)[0] as Json).examples[op.operationId].summary).replace(/^GET /, ''));

  it('the document states the largest page (the largest exact number) and no largest limit', () => {
    expect(param('Page').schema).toMatchObject({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
    expect(param('Limit20').schema.maximum).toBeUndefined();
  });

  it('on every list operation: page 1000000000 and the maximum are 200 with data [], limit 1000000000 is capped with a warning', async () => {
    expect(lists.length).toBe(16);
    for (const raw of lists) {
      const url = raw.replace(/b2b-keys\/\w+\/audit/, `b2b-keys/${keyId}/audit`);
      for (const page of ['1000000000', String(Number.MAX_SAFE_INTEGER)]) {
        const { status, body } = await call(withParam(url, 'page', page), { headers: partner });
        expect(status, `${url} page=${page}`).toBe(200);
        expect(body.data).toEqual([]);
        expect(body.page.page).toBe(Number(page));
      }
      const { status, body } = await call(withParam(url, 'limit', '1000000000000000000000'), { headers: partner });
      expect(status, `${url} limit`).toBe(200);
      expect(body.page.limit).toBe(100);
      expect(body.warnings).toContain('limit capped at 100');
    }
  });

  it('a page past the maximum is 400 with a message that says the maximum; 0 and text say the range too', async () => {
    const url = '/v1/discover/sets';
    const message = await expect400(withParam(url, 'page', String(Number.MAX_SAFE_INTEGER + 1)), { headers: partner }, 'page');
    expect(message).toBe(`page must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`);
    expect(await expect400(withParam(url, 'page', '0'), { headers: partner }, 'page')).toBe(message);
    expect(await expect400(withParam(url, 'limit', 'x'), { headers: partner }, 'limit')).toBe('limit must be an integer, 1 or more');
  });
});

describe('2. a day that does not exist is 400 naming the parameter', () => {
  it('since and until on the audit route', async () => {
    const url = `/v1/admin/b2b-keys/${keyId}/audit`;
    for (const value of ['2026-02-30', '2026-02-29', '2026-04-31', '2026-13-01', '2026-02-30T00:00:00Z', '2026-01-01T24:00:00Z']) {
      await expect400(withParam(url, 'since', value), { headers: partner }, 'since');
      await expect400(withParam(url, 'until', value), { headers: partner }, 'until');
    }
    // Checked before the key is looked up: the same 400 for a key ID that does not exist.
    await expect400('/v1/admin/b2b-keys/ZZZZZZZZ/audit?since=2026-02-30', { headers: partner }, 'since');
    expect((await call(withParam(url, 'since', '2028-02-29'), { headers: partner })).status).toBe(200);
    expect((await call(withParam(url, 'since', '2000-02-29T23:59:59.999+01:00'), { headers: partner })).status).toBe(200);
  });

  it('expiresAt when minting and rotating; the 29th of February of a leap year is stored as it is', async () => {
    const mint = (expiresAt: string) => ({ method: 'POST', headers: json, body: JSON.stringify({ tenant: 'acme', expiresAt }) });
    await expect400('/v1/admin/b2b-keys', mint('2027-02-30'), 'expiresAt');
    await expect400('/v1/admin/b2b-keys', mint('2027-02-29T10:00:00Z'), 'expiresAt');
    const leap = await call('/v1/admin/b2b-keys', mint('2028-02-29'));
    expect(leap.status).toBe(201);
    expect(leap.body.expiresAt).toBe('2028-02-29T00:00:00.000Z');
    const rotate = { method: 'POST', headers: json, body: JSON.stringify({ expiresAt: '2027-06-31' }) };
    await expect400(`/v1/admin/b2b-keys/${leap.body.keyId}/rotate`, rotate, 'expiresAt');
  });
});

describe('3. since, until and expiresAt carry the pattern the API enforces', () => {
  it('the document\'s pattern refuses the days the API refuses and takes the ones it takes', () => {
    const schemas = [param('Since').schema, param('Until').schema, doc.components.schemas.MintRequest.properties.expiresAt.oneOf[0],
      doc.components.schemas.RotateRequest.properties.expiresAt.oneOf[0]];
    for (const schema of schemas) {
      const pattern = new RegExp(schema.pattern);
      for (const ok of ['2027-01-31', '2028-02-29', '2000-02-29', '2027-01-31T00:00Z', '2027-01-31T23:59:59.5-05:30']) expect(pattern.test(ok), ok).toBe(true);
      for (const bad of ['2027-02-29', '1900-02-29', '2027-02-30', '2027-00-10', '2027-01-31T24:00:00Z', '2027-01-31T00:00:00', 'yesterday']) expect(pattern.test(bad), bad).toBe(false);
    }
  });
});

describe('4. tenant: one rule in the document and the API', () => {
  it('a tenant starting with @ . _ or - is refused by the document\'s pattern and by the API, as query and as body field', async () => {
    const pattern = new RegExp(param('Tenant').schema.pattern);
    expect(doc.components.schemas.MintRequest.properties.tenant.pattern).toBe(param('Tenant').schema.pattern);
    for (const tenant of ['@acme', '.acme', '_acme', '-acme', 'a'.repeat(65)]) {
      expect(pattern.test(tenant), tenant).toBe(false);
      await expect400(`/v1/admin/b2b-keys?tenant=${encodeURIComponent(tenant)}`, { headers: internal }, 'tenant');
      await expect400('/v1/admin/b2b-keys', { method: 'POST', headers: json, body: JSON.stringify({ tenant }) }, 'tenant');
    }
    for (const tenant of ['a', 'acme@example.com', `a${'-'.repeat(63)}`]) {
      expect(pattern.test(tenant), tenant).toBe(true);
      expect((await call(`/v1/admin/b2b-keys?tenant=${encodeURIComponent(tenant)}`, { headers: internal })).status).toBe(200);
    }
  });
});

describe('5. an object key sent with its slashes percent-encoded', () => {
  const key = 'v1/cards/OP01-001/30d.json.gz';
  const bytes = async (url: string) => {
    const res = await app.request(url, { headers: partner });
    return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
  };

  it('the document\'s own example, encoded as a generated client encodes a path parameter, is the same object', async () => {
    expect(param('ObjectKey').schema.examples).toEqual([key]);
    const plain = await bytes(`/v1/snapshot/objects/${key}`);
    const encoded = await bytes(`/v1/snapshot/objects/${encodeURIComponent(key)}`);
    expect(plain.status).toBe(200);
    expect(encoded.status).toBe(200);
    expect(encoded.body.equals(plain.body)).toBe(true);
    expect((await bytes('/v1/snapshot/objects/v1/cards%2FOP01-001/30d.json.gz')).status).toBe(200);
  });

  it('it is decoded once only, and traversal stays refused', async () => {
    for (const raw of ['v1%252Fcards%252FOP01-001%252F30d.json.gz', 'v1%2Fcards%2F..%2F..%2Fmanifest.json.gz', 'v1%2Fcards%2F%2E%2E%2Fx.json.gz',
      'v1%2F%2Fcards%2FOP01-001%2F30d.json.gz', 'v1%2Fcards%2FOP01-001%2F30d.json.gz%00', 'v1%2Fcards%2F%E0%A4%A']) {
      await expect400(`/v1/snapshot/objects/${raw}`, { headers: partner }, 'the object key');
    }
  });
});
