/**
 * fast-check arbitraries of hostile requests for the fuzz tests: every route of API.md §3 (and the
 * admin, session-only and unknown ones), every method, path segments with traversal, encoded NULs,
 * broken percent-encoding, invalid UTF-8, overlong and huge-number values, query strings with
 * repeated and bracketed keys and full-text syntax, and the headers the gate and the caches read
 * (Authorization from valid to oversize, cookies, origins, internal key, encodings, ETags).
 */
import fc from 'fast-check';
import { INTERNAL_KEY } from './auth-fixtures.js';
import type { CompiledCatalog } from './compiled-catalog.js';

/** Runs per fuzz property in `npm test`; FUZZ_RUNS=20000 in the environment for a longer hunt. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 1500);

export interface HostileRequest {
  method: string;
  /** Path and query string exactly as sent. */
  target: string;
  headers: Record<string, string>;
  body: string | null;
}

export interface FuzzContext {
  catalog: CompiledCatalog;
  /** Valid keys (to get past the gate) and their ids. */
  keys: string[];
  keyIds: string[];
}

const printable = (max: number) => fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((n) => String.fromCharCode(n)), maxLength: max });

const NASTY_SEGMENTS = [
  '..', '.', '%2e%2e', '%2E%2E%2F', '..%2f..%2fetc%2fpasswd', '....//', '%2f', '%5c..%5c', '%00', 'a%00b', '%2500', '%', '%zz', '%4', '%C3%28',
  '%FF%FE', '%E2%82', '%ED%A0%80', '%C0%AE%C0%AE', '%F4%90%80%80', '99999999999999999999999999', '-1', '0', '1e309', 'NaN', 'Infinity',
  '0x10', '1.5', '%201', 'a\\b', '..\\..\\etc', '__proto__', 'constructor', 'current', 'manifest.ndjson', 'search.sqlite', 'v1', '%3Cscript%3E', "'%20OR%201=1--",
];
const FTS_SYNTAX = ['"', '""', '*', 'a*', 'NEAR(a b)', 'a AND b', 'OR', 'NOT x', '(', ')', '^a', 'name:x', "'", 'a"b', '-x', '+', 'mtg:', 'figures:*',
  'pokemon:"', ':', '{a b}', 'a OR', 'rank', '\u0000', '%', '_', '\\', 'ä', '𝔘', '\uFFFD'];
const PARAM_NAMES = ['range', 'page', 'limit', 'q', 'game', 'since', 'until', 'tenant', 'limit[]', 'page[0]', '__proto__', 'constructor', '', 'x'];

function segment(ctx: FuzzContext): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...NASTY_SEGMENTS) },
    { weight: 3, arbitrary: fc.constantFrom(...validIds(ctx)) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }).map((s) => encodeURIComponent(s)) },
    { weight: 1, arbitrary: fc.integer({ min: 100, max: 6000 }).map((n) => 'a'.repeat(n)) },
    { weight: 1, arbitrary: fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String) },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9._-]{1,140}$/) },
  );
}

function validIds(c: FuzzContext): string[] {
  const { catalog } = c;
  return [
    ...catalog.cardIds, ...catalog.figureIds, ...catalog.seriesIds, ...catalog.sets.map((s) => s.code), ...catalog.sets.map((s) => s.game),
    ...catalog.users.flatMap((u) => (u.handle ? [u.handle] : [])), 'mtg', 'pokemon', 'lorcana', 'onepiece', 'figures', 'all',
    'sets', 'users', 'binders', 'activity', 'sparklines', ...c.keyIds,
  ];
}

/** Route shapes; `$` is replaced by a segment. */
const ROUTES = [
  '/v1/cards/$', '/v1/figures/$', '/v1/oracle/$', '/v1/sets/$/$', '/v1/search', '/v1/trending', '/v1/recent', '/v1/artists/$',
  '/v1/figures/series/$', '/v1/discover/$', '/v1/series/$/pull-stats', '/v1/catalog/summary', '/v1/admin/b2b-keys',
  '/v1/admin/b2b-keys/$', '/v1/admin/b2b-keys/$/audit', '/v1/admin/b2b-keys/$/rotate', '/v1/u/$', '/v1/u/$/binders', '/v1/me', '/v1/me/$',
  '/v1/observations', '/v1/$', '/v1/$/$/$', '/$', '/', '/v2/cards/$', '/v1//cards//$', '/v1/cards/$/$',
];

function path(ctx: FuzzContext): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...ROUTES), fc.array(segment(ctx), { minLength: 4, maxLength: 4 })).map(([route, segs]) => {
    let i = 0;
    return route.replace(/\$/g, () => segs[i++]);
  });
}

function queryValue(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...FTS_SYNTAX).map(encodeURIComponent),
    fc.constantFrom(...NASTY_SEGMENTS),
    fc.constantFrom('30d', '3mo', '6mo', '12mo', 'all', '1', '100', '101', '2026-11-20', '2026-11-20T00:00:00Z', 'mtg', 'figures'),
    fc.string({ unit: 'binary', maxLength: 220 }).map(encodeURIComponent),
    fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  );
}

function query(): fc.Arbitrary<string> {
  const pair = fc.tuple(fc.oneof(fc.constantFrom(...PARAM_NAMES), printable(8).map(encodeURIComponent)), queryValue(), fc.boolean());
  return fc.array(pair, { maxLength: 5 }).map((pairs) => (pairs.length === 0 ? '' : '?' + pairs.map(([k, v, bare]) => (bare && v === '' ? k : `${k}=${v}`)).join('&')));
}

function authorization(ctx: FuzzContext): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...ctx.keys).map((k) => `Bearer ${k}`) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: printable(60).map((s) => `Bearer ${s}`) },
    { weight: 1, arbitrary: fc.integer({ min: 1000, max: 12_000 }).map((n) => `Bearer rxk_${'A'.repeat(n)}`) },
    { weight: 1, arbitrary: fc.constantFrom('Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'bearer  rxk_', 'Token abc', 'Bearer rxk_00000000000000000000000000000000') },
    { weight: 1, arbitrary: fc.constantFrom(...ctx.keys).map((k) => `Bearer ${k}x`) },
  );
}

function headers(ctx: FuzzContext): fc.Arbitrary<Record<string, string>> {
  return fc.record({
    authorization: authorization(ctx),
    'accept-encoding': fc.option(fc.oneof(fc.constantFrom('gzip', 'identity', '*', 'gzip;q=0', 'gzip;q=0, *', 'br, gzip;q=0.5', 'gzip;q=abc', ''), printable(40)), { nil: undefined }),
    'if-none-match': fc.option(fc.oneof(fc.constantFrom('*', 'W/"x"', '"', '""'), printable(80)), { nil: undefined }),
    cookie: fc.option(fc.oneof(fc.constantFrom('catalog_session=', 'catalog_session=a.b', 'catalog_session=eyJzdWIiOiJ4IiwiZXhwIjo5OTk5OTk5OTk5fQ.AAAA'), printable(100)), { nil: undefined }),
    origin: fc.option(fc.constantFrom('https://app.example.test', 'https://evil.example', 'null', ''), { nil: undefined }),
    'sec-fetch-site': fc.option(fc.constantFrom('same-origin', 'cross-site', 'none'), { nil: undefined }),
    'x-service-internal-key': fc.option(fc.oneof(fc.constant(INTERNAL_KEY.slice(0, -1)), printable(40)), { nil: undefined }),
    'content-type': fc.option(fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data'), { nil: undefined }),
    'x-request-id': fc.option(printable(60), { nil: undefined }),
  }, { requiredKeys: [] }).map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>);
}

/** Real paths of the catalog with valid parameters: what a partner sends, so answers include 200s. */
function realTarget(ctx: FuzzContext): fc.Arbitrary<string> {
  const { catalog } = ctx;
  const handles = catalog.users.flatMap((u) => (u.handle ? [u.handle] : []));
  const list = fc.oneof(fc.constant(''), fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 120 })).map(([p, l]) => `?page=${p}&limit=${l}`));
  return fc.oneof(
    fc.tuple(fc.constantFrom(...catalog.cardIds), fc.constantFrom('', '?range=30d', '?range=3mo', '?range=all')).map(([id, q]) => `/v1/cards/${id}${q}`),
    fc.constantFrom(...catalog.figureIds).map((id) => `/v1/figures/${id}`),
    fc.tuple(fc.constantFrom(...catalog.sets), list).map(([s, q]) => `/v1/sets/${s.game}/${s.code}${q}`),
    fc.tuple(fc.constantFrom(...catalog.seriesIds), list).map(([id, q]) => `/v1/figures/series/${id}${q}`),
    fc.constantFrom(...catalog.seriesIds).map((id) => `/v1/series/${id}/pull-stats`),
    fc.tuple(fc.constantFrom('sets', 'users', 'binders', 'activity', 'sparklines'), list).map(([f, q]) => `/v1/discover/${f}${q}`),
    fc.tuple(fc.constantFrom('trending', 'recent'), fc.constantFrom('', '?game=mtg', '?game=pokemon', '?game=figures')).map(([r, q]) => `/v1/${r}${q}`),
    fc.tuple(fc.oneof(fc.constantFrom(...FTS_SYNTAX), printable(30), fc.constantFrom(...handles)), list).map(([q, rest]) => `/v1/search?q=${encodeURIComponent(q)}${rest.replace('?', '&')}`),
    fc.constantFrom(...handles).map((h) => `/v1/u/${h}`),
    fc.constant('/v1/catalog/summary'),
    fc.constantFrom(...ctx.keyIds).map((id) => `/v1/admin/b2b-keys/${id}/audit?limit=5`),
  );
}

export function hostileRequest(ctx: FuzzContext): fc.Arbitrary<HostileRequest> {
  return fc.oneof(partnerRequest(ctx), anyRequest(ctx));
}

/** A partner's request with a valid key, sometimes with one hostile header. */
function partnerRequest(ctx: FuzzContext): fc.Arbitrary<HostileRequest> {
  return fc.record({
    method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD'),
    target: realTarget(ctx),
    key: fc.constantFrom(...ctx.keys),
    extra: headers(ctx),
    keepExtra: fc.boolean(),
  }).map((r) => ({
    method: r.method,
    target: r.target,
    headers: { ...(r.keepExtra ? r.extra : {}), authorization: `Bearer ${r.key}` },
    body: null,
  }));
}

function anyRequest(ctx: FuzzContext): fc.Arbitrary<HostileRequest> {
  return fc.record({
    method: fc.oneof({ weight: 6, arbitrary: fc.constant('GET') }, { weight: 3, arbitrary: fc.constantFrom('HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') }),
    path: path(ctx),
    query: query(),
    headers: headers(ctx),
    body: fc.oneof(fc.constant(null), fc.json().map((j) => j), printable(200), fc.constantFrom('{"tenant":"acme","tier":"enterprise"}', '{"tenant":"../../x"}', '{', 'null')),
  }).map((r) => ({
    method: r.method,
    target: r.path + r.query,
    headers: r.headers,
    body: r.method === 'GET' || r.method === 'HEAD' ? null : r.body,
  }));
}
