/**
 * Hostile input through the app (issue 6): a property-based fuzzer (fast-check) over every route,
 * method, path parameter, query parameter and request header, against a real compiled catalog and a
 * real state file. Property: every answer is documented (see helpers/documented-answer.ts), never a
 * 5xx, never an exception out of the app, and nothing is logged as a server fault.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_SECRET } from '../helpers/auth-fixtures.js';
import type { CompiledCatalog } from '../helpers/compiled-catalog.js';
import { answerOf, problemWith } from '../helpers/documented-answer.js';
import { compiledWorld, type FixtureWorld } from '../helpers/fixture-app.js';
import { FUZZ_RUNS, hostileRequest, type HostileRequest } from '../helpers/hostile-requests.js';

let w: FixtureWorld;
let catalog: CompiledCatalog;
let app: ReturnType<FixtureWorld['app']>;

beforeAll(async () => {
  ({ world: w, catalog, app } = await compiledWorld({ CATALOG_SESSION_SECRET: SESSION_SECRET, CATALOG_PUBLIC_ORIGINS: 'https://app.example.test' }));
});
afterAll(() => w?.close());

async function send(r: HostileRequest) {
  const init: RequestInit = { method: r.method, headers: r.headers };
  if (r.body !== null) init.body = r.body;
  return answerOf(await app.request(r.target, init), r.method);
}

describe('fuzzing every route through app.request', () => {
  it(`when ${FUZZ_RUNS} hostile requests are sent then every answer is a documented one and nothing is logged as a fault`, async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(hostileRequest({ catalog, keys: [w.acme.key, w.globex.key], keyIds: [w.acme.keyId, w.globex.keyId] }), async (r) => {
        const answer = await send(r);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const problem = problemWith(answer);
        if (problem !== null) throw new Error(`${r.method} ${r.target}: ${problem}`);
      }),
      { numRuns: FUZZ_RUNS },
    );
    expect(w.logs.filter((l) => l.level === 'error')).toEqual([]);
    // The generator reaches real answers as well as refusals, or the property would prove little.
    for (const status of [200, 400, 401, 404]) expect(statuses.get(status) ?? 0, `status ${status} seen`).toBeGreaterThan(0);
    console.info(`fuzz-app: ${FUZZ_RUNS} requests, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  }, 120_000);
});
