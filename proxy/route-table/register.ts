/**
 * Makes the Hono routes of a route table (route.ts). Every route, in the order a request meets it:
 * the route pattern for the audit row, the caller it needs (the internal key for key
 * administration), unknown query parameters refused (a typo is a clear 400, not a silent default),
 * each parameter checked in the route's order (a query parameter given twice is refused, API.md §3),
 * `page` and `limit` for a list, the JSON body for a write, then the answer. All of it runs before
 * any store is touched.
 */
import type { Context, Hono } from 'hono';
import type { ProxyEnv } from '../env.js';
import { parseListParams, rejectUnknownParams, singleParam } from '../http/params.js';
import { queryOf } from '../serve-object/validate.js';
import { CatalogError } from '../../snapshots/errors.js';
import { familyOf } from '../gate/families.js';
import { requireInternal } from '../gate/internal.js';
import { readJsonObject } from '../http/json-body.js';
import type { Param } from './param.js';
import { Fields, Snapshot, View } from './params.js';
import { checkSelection, type Selection, type View as ViewName } from '../serve-object/selection.js';
import type { ReadDoc, Route, RouteDeps, RouteRequest } from './route.js';

const PAGING_NAMES = ['page', 'limit'];

/** `/v1/cards/{id}` → `/v1/cards/:id`; a rest parameter → `*`. */
export function honoPath(route: Route): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => (paramNamed(route, name)?.rest ? '*' : `:${name}`));
}

function paramNamed(route: Route, name: string): Param<unknown> | undefined {
  return Object.values(route.params).find((p) => p.in === 'path' && p.name === name);
}

/** The rest of the path after `prefix`, from the raw URL (not Hono's partly decoded path), decoded once; null if that fails. */
function restOfPath(url: string, prefix: string): string | null {
  const start = url.indexOf(prefix, url.indexOf('://') + 3);
  const end = url.search(/[?#]/);
  try {
    return decodeURIComponent(url.slice(start + prefix.length, end < 0 ? undefined : end));
  } catch {
    return null;
  }
}

export function registerRoutes(router: Hono<ProxyEnv>, table: readonly Route[], deps: RouteDeps): void {
  for (const route of table) registerRoute(router, route, deps);
  // The partner paths' other methods are refused by the gate's method check (gate/methods.ts); the
  // others name, in Allow, the methods their entries declare (GET also answers HEAD).
  const methods = new Map<string, Set<string>>();
  for (const route of table) {
    if (familyOf(route.path) === 'partner') continue;
    const pattern = honoPath(route);
    const set = methods.get(pattern) ?? new Set<string>();
    const method = (route.method ?? 'get').toUpperCase();
    set.add(method);
    if (method === 'GET') set.add('HEAD');
    methods.set(pattern, set);
  }
  for (const [pattern, set] of methods) {
    const allow = [...set].sort().join(', ');
    router.all(pattern, (c) => {
      throw new CatalogError('method_not_allowed', `${c.req.method} is not allowed on this route.`, { allow });
    });
  }
}

function registerRoute(router: Hono<ProxyEnv>, route: Route, deps: RouteDeps): void {
  const pattern = honoPath(route);
  const params = Object.entries(route.params);
  const allowed = [...params.filter(([, p]) => p.in === 'query').map(([, p]) => p.name), ...(route.paging === undefined ? [] : PAGING_NAMES)];
  const restPrefix = pattern.endsWith('*') ? pattern.slice(0, -1) : '';
  const each = 'each' in route.doc ? route.doc.each : null;
  const answer = answerOf(route, deps);
  const checkQuery = route.query !== 'ignored';
  const body = route.body;
  // A route that declares `snapshot` reads that kept snapshot (an as-of read): pinned here, before
  // the answer, so every read of the request (document, list page, search index, snapshot file)
  // comes from it, with its X-Snapshot-Id; 410 `gone` once it is pruned.
  const asOf = params.find(([, p]) => p === Snapshot)?.[0] ?? null;

  router.on((route.method ?? 'get').toUpperCase(), pattern, async (c) => {
    c.set('routePattern', pattern);
    if (route.caller === 'internal') requireInternal(c);
    const query = queryOf(c);
    if (checkQuery) rejectUnknownParams(query, allowed);
    const values: Record<string, unknown> = {};
    for (const [key, p] of params) {
      const raw = p.in === 'query' ? singleParam(query, p.name) : p.rest ? restOfPath(c.req.url, restPrefix) : c.req.param(p.name);
      values[key] = p.check(raw);
    }
    // The audit row names the concrete route: API.md lists the discover feeds as separate routes.
    if (each !== null) c.set('routePattern', pattern.replace(`:${route.params[each].name}`, String(values[each])));
    const page = route.paging === undefined ? null : parseListParams(query, route.paging);
    if (asOf !== null && values[asOf] !== undefined) await deps.serve.pinAt(c, values[asOf] as string);
    return answer(c, { values, page, body: body === undefined ? null : await readJsonObject(c, body.fields, body.optional === true) });
  });
}
/**
 * A list route that declares `fields` and `view` answers with the selection they make, checked
 * against the item schema its document names (per feed for the discover route).
 */
function selectionOf(route: Route): (values: Record<string, unknown>) => Selection | null {
  if (route.params.fields !== Fields || route.params.view !== View) return () => null;
  const doc = route.doc;
  const schemaOf = (values: Record<string, unknown>): ReadDoc => ('each' in doc ? doc.read[String(values[doc.each])] : (doc as { read: ReadDoc }).read);
  return (values) => checkSelection(String(schemaOf(values).data.$ref).split('/').pop()!, values.fields as string[] | undefined, values.view as ViewName);
}

function answerOf(route: Route, deps: RouteDeps): (c: Context<ProxyEnv>, request: RouteRequest<Route['params']>) => Promise<Response> | Response {
  const a = route.answer;
  if ('document' in a) return (c, { values }) => deps.serve.document(c, a.document(values), a.what);
  if ('list' in a) {
    if (route.paging === undefined) throw new Error(`route ${route.path} answers a list but declares no paging`);
    const selection = selectionOf(route);
    return (c, { values, page }) => deps.serve.list(c, a.list(values), page!, a.what, selection(values));
  }
  return (c, request) => a.handler(c, request, deps);
}
