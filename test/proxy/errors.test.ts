/** Error mapping (API.md §6): every error is JSON with a request id; unknown failures become a bare 500 `internal`. */
import { afterEach, describe, expect, it } from 'vitest';
import { authHarness, bearer, type AuthHarness } from '../helpers/auth-fixtures.js';

let h: AuthHarness;
afterEach(() => h?.close());

describe('unexpected failures', () => {
  it('when the state database fails during the gate then 500 internal with no stack and no path, logged with the request id', async () => {
    h = authHarness();
    const { key } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    h.state.sqlite.close(); // every statement now throws "The database connection is not open"
    const res = await h.app.request('/v1/catalog/summary', { headers: bearer(key) });
    expect(res.status).toBe(500);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const requestId = res.headers.get('X-Request-Id');
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: 'internal', message: expect.any(String), requestId });
    expect(text).not.toMatch(/database|\.ts|\/work|\/tmp|at /);
    const errors = h.logs.filter((l) => l.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ level: 'error', fields: { requestId, method: 'GET' } });
    expect(String(errors[0].fields.error)).toContain('not open');
    // and the request's own line, with the same id and the status the client got
    expect(h.logs.filter((l) => l.level === 'info')).toMatchObject([{ message: 'request', fields: { requestId, status: 500 } }]);
    expect(JSON.stringify(h.logs)).not.toContain(key);
  });

  it('when the snapshot source throws then the answer is still a JSON error with the request id', async () => {
    h = authHarness({ snapshots: { current: async () => { throw new Error('EACCES /srv/snapshots/secret-path'); } } });
    const { key } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    const res = await h.app.request('/v1/catalog/summary', { headers: bearer(key) });
    expect(res.status).toBeGreaterThanOrEqual(500);
    const text = await res.text();
    expect(text).not.toContain('/srv/snapshots');
    expect(JSON.parse(text)).toMatchObject({ requestId: res.headers.get('X-Request-Id') });
  });
});
