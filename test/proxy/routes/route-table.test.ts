/**
 * Issue 19: a route's parameters are declared once, in its route-table entry. Adding a query
 * parameter to an entry (here in a table built by the test: `shape`, which no real route takes) is enough for the served /openapi.json to document it and for the route to check it:
 * a bad value is 400 naming it, a good one is taken, and routes without it still refuse it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryParam } from '../../../proxy/route-table/param.js';
import { partnerRoutes } from '../../../proxy/route-table/table.js';
import type { Route } from '../../../proxy/route-table/route.js';
import { requireOneOf } from '../../../proxy/serve-object/validate.js';
import { createFsSnapshotSource } from '../../../snapshots/store/fs.js';
import { createTestApp, type TestApp } from '../../helpers/server-app.js';
import { writeFixtureSnapshot } from '../../helpers/snapshot-fixture.js';

const SHAPES = ['full', 'compact'] as const;
const Shape = queryParam({
  component: 'Shape', name: 'shape', description: 'How much of each item to send.',
  schema: { type: 'string', enum: [...SHAPES], default: 'full' },
  check: (raw) => requireOneOf(raw ?? 'full', SHAPES, 'shape'),
});

/** The one edit: the trending entry's parameters gain `shape`. */
function withShape(routes: Route[]): Route[] {
  return routes.map((r) => (r.path === '/v1/trending' ? { ...r, params: { ...r.params, shape: Shape } } : r));
}

let root: string;
let t: TestApp;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'catalog-route-table-'));
  await writeFixtureSnapshot(root);
  t = await createTestApp({ snapshots: createFsSnapshotSource(root), routes: withShape(partnerRoutes()) });
});
afterAll(() => {
  t.close();
  rmSync(root, { recursive: true, force: true });
});

const get = async (path: string) => {
  const res = await t.request(path, { headers: t.headers });
  return { status: res.status, body: JSON.parse(await res.text()) as Record<string, any> };
};

describe('when a route-table entry gains a query parameter', () => {
  it('then the served document lists it on that operation, before page and limit, and as a component', async () => {
    const { status, body: doc } = await get('/openapi.json');
    expect(status).toBe(200);
    // fields and view are written out (each list names its own fields); the others are components.
    expect(doc.paths['/v1/trending'].get.parameters.map((p: { $ref?: string; name?: string }) => p.$ref ?? p.name)).toEqual([
      '#/components/parameters/GameFilter',
      'fields',
      'view',
      '#/components/parameters/Snapshot',
      '#/components/parameters/Shape',
      '#/components/parameters/Page',
      '#/components/parameters/Limit20',
    ]);
    expect(doc.components.parameters.Shape).toEqual({
      name: 'shape', in: 'query', required: false, description: 'How much of each item to send.',
      schema: { type: 'string', enum: ['full', 'compact'], default: 'full' },
    });
    expect(JSON.stringify(doc.paths['/v1/recent'])).not.toContain('Shape');
  });

  it('then a bad value is 400 invalid_parameter naming it, and a good one is taken', async () => {
    const bad = await get('/v1/trending?shape=everything');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'invalid_parameter', message: 'shape must be one of full, compact' });
    const twice = await get('/v1/trending?shape=full&shape=compact');
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe('shape may be given only once');
    expect((await get('/v1/trending?shape=compact&limit=2')).status).toBe(200);
  });

  it('then the routes that do not declare it still refuse it as unknown', async () => {
    const other = await get('/v1/recent?shape=compact');
    expect(other.status).toBe(400);
    expect(other.body.message).toBe('unknown parameter shape');
  });
});
