/**
 * The OpenAPI document itself: docs/openapi.json is what the code builds, its examples are real
 * answers for the example catalog, it passes a real OpenAPI linter, and it lists exactly the routes
 * the app registers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../proxy/app.js';
import { loadConfig } from '../../proxy/config.js';
import { captureExamples } from '../../proxy/openapi/capture-examples.js';
import { buildOpenApiDocument } from '../../proxy/openapi/document.js';
import { committedExamples } from '../../proxy/openapi/examples.js';
import { openStateDb } from '../../proxy/state/open.js';
import { emptySnapshots, tempDir } from '../helpers/auth-fixtures.js';
import { REPO } from '../helpers/cli.js';
import { compileExampleCatalog, type CompiledCatalog } from '../helpers/example-catalog.js';

const DOC_FILE = join(REPO, 'docs', 'openapi.json');
const REGENERATE = 'run `npm run openapi` and commit the result';

/**
 * Redocly's strictest built-in ruleset (every rule of `recommended` as an error, among them the
 * structural check against the OpenAPI 3.1 schema and examples validated against their schemas),
 * plus rules it leaves off that a partner reading the document relies on.
 */
async function lint(source: string): Promise<NormalizedProblem[]> {
  const config = await createConfig({
    extends: ['recommended-strict'],
    rules: {
      'operation-description': 'error',
      'parameter-description': 'error',
      'operation-tag-defined': 'error',
      'path-params-defined': 'error',
      'no-invalid-schema-examples': 'error',
    },
  });
  return lintFromString({ source, absoluteRef: DOC_FILE, config });
}

const problemsOf = (problems: NormalizedProblem[]) => problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);

describe('docs/openapi.json', () => {
  it('is byte for byte the document the code builds from the committed examples', () => {
    const built = `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
    expect(readFileSync(DOC_FILE, 'utf8') === built, `docs/openapi.json is stale: ${REGENERATE}`).toBe(true);
  });

  it('passes the Redocly linter (recommended-strict plus description, tag and path-parameter rules) without a problem', async () => {
    expect(problemsOf(await lint(readFileSync(DOC_FILE, 'utf8')))).toEqual([]);
  });

  it('when an example breaks its schema or an operation loses its id, then the linter reports it', async () => {
    const doc = buildOpenApiDocument() as any;
    const card = doc.paths['/v1/cards/{id}'].get;
    card.responses[200].content['application/json'].examples.getCard.value.data.prices.marketCents = 'cheap';
    delete doc.paths['/v1/trending'].get.operationId;
    const rules = (await lint(JSON.stringify(doc))).map((p) => p.ruleId);
    expect(rules).toContain('no-invalid-media-type-examples');
    expect(rules).toContain('operation-operationId');
  });
});

describe('examples', () => {
  let catalog: CompiledCatalog;
  beforeAll(async () => {
    catalog = await compileExampleCatalog();
  });
  afterAll(() => catalog?.cleanup());

  it('when the example catalog is compiled again, then the proxy answers exactly the committed examples', async () => {
    expect(await captureExamples(catalog.root), `proxy/openapi/examples.json is stale: ${REGENERATE}`).toEqual(committedExamples());
  });

  it('every operation of the document carries its captured example', () => {
    const doc = buildOpenApiDocument();
    const ops = Object.values(doc.paths).flatMap((item) => Object.values(item)) as { operationId: string; responses: Record<string, any> }[];
    // The document itself, the reference page's script (Redoc's bundle) and binary downloads (gzip bytes, packs, SQLite files make no example), carry none.
    const binary = (op: (typeof ops)[number]) => ['application/gzip', 'application/octet-stream'].some((t) => t in (op.responses[200]?.content ?? {}));
    const withoutExample = ops.filter((op) => !['getOpenApi', 'getDocsScript'].includes(op.operationId) && !binary(op))
      .map((op) => op.operationId).filter((id) => !(id in committedExamples().operations));
    expect(withoutExample).toEqual([]);
    expect(ops.filter(binary).map((op) => op.operationId).sort()).toEqual(['getBulkFile', 'getSnapshotFile', 'getSnapshotObject', 'getSnapshotPack']);
    expect(Object.keys(committedExamples().errors).sort()).toEqual(['400', '401', '403', '404', '405', '410', '416', '429', '500', '503']);
  });
});

describe('routes', () => {
  it('every route the app registers is documented, and every documented operation is a route of the app', () => {
    const tmp = tempDir();
    const state = openStateDb(join(tmp.dir, 'state.sqlite'));
    try {
      const app = createApp({ db: state, config: loadConfig({}), snapshots: emptySnapshots });
      const registered = app.routes.filter((r) => r.method !== 'ALL').map((r) => ({ method: r.method, path: r.path }));
      const documented = Object.entries(buildOpenApiDocument().paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => ({ method: method.toUpperCase(), path })));
      // A registered `:param` segment stands for any documented segment: /v1/discover/:feed covers /v1/discover/sets;
      // a trailing `*` for one documented `{param}` that takes the rest of the path (/v1/snapshot/objects/{key}).
      const covers = (r: { method: string; path: string }, d: { method: string; path: string }) => {
        const rs = r.path.split('/');
        const ds = d.path.split('/');
        if (rs.at(-1) === '*' && /^\{\w+\}$/.test(ds.at(-1)!)) {
          rs.pop();
          ds.pop();
        }
        return r.method === d.method && rs.length === ds.length && rs.every((seg, i) => seg.startsWith(':') || seg === ds[i]);
      };
      expect(registered.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining(['GET /v1/cards/:id', 'GET /openapi.json', 'POST /v1/admin/b2b-keys', 'GET /v1/snapshot/objects/*', 'GET /healthz']));
      expect(documented.filter((d) => !registered.some((r) => covers(r, d)))).toEqual([]);
      expect(registered.filter((r) => !documented.some((d) => covers(r, d)))).toEqual([]);
    } finally {
      state.close();
      tmp.cleanup();
    }
  });
});

