/**
 * A route of the partner API, declared once (issue 19): its path, its parameters in the order they
 * are checked, what answers it, and its text for the document. register.ts makes the Hono route from
 * it (the route pattern for the audit row, unknown parameters refused, each parameter checked) and
 * proxy/openapi/table-paths.ts its OpenAPI path item; nothing else lists a route's parameters.
 *
 * Why a table of our own and not @hono/zod-openapi (docs/benchmarks.md "Route table"): the document
 * must stay byte for byte what partners have (component `$ref`s, captured examples, the error
 * responses of API.md §6), which zod-to-openapi would render its own way; the checks must keep their
 * order and messages (a parameter given twice, `limit` capped with a warning), which zod's issues
 * would have to be mapped back to; and it measured slower per request.
 */
import type { Context } from 'hono';
import type { DocumentKind } from '../../snapshots/envelope.js';
import type { ListFamily } from '../../snapshots/keys.js';
import type { ProxyEnv } from '../env.js';
import type { ListParams } from '../http/params.js';
import type { CustomOperation } from '../openapi/route-spec.js';
import type { Schema } from '../openapi/schema-kit.js';
import type { SearchQuery } from '../search/query.js';
import type { ObjectServer } from '../serve-object/object-server.js';
import type { SnapshotFiles } from '../snapshot-files/snapshot-files.js';
import type { SnapshotList } from '../snapshot-files/snapshot-list.js';
import type { Selection } from '../serve-object/selection.js';
import type { AuditReader } from '../audit/reader.js';
import type { KeyStore } from '../keys/store.js';
import type { WebhookDeps } from '../webhooks/deps.js';
import type { Params, Values } from './param.js';

/** An interface whose methods may also answer with a promise (the fleet state's, across a network). */
export type MaybeAsync<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => R | Promise<R> : T[K] };

/** What the key administration and audit answers need (routes/admin-*.ts): the SQLite state's, or the fleet's. */
export interface AdminDeps {
  keys: MaybeAsync<KeyStore>;
  audit: MaybeAsync<AuditReader>;
  clock: () => number;
}

/** What the answers need, built once per app (routes/route-deps.ts). */
export interface RouteDeps {
  serve: ObjectServer;
  files: SnapshotFiles;
  /** The kept snapshots, for GET /v1/snapshots and the Atom feed. */
  snapshots: SnapshotList;
  /** Answers a search from the snapshot's index (routes/search.ts). */
  search: (c: Context<ProxyEnv>, query: SearchQuery, page: ListParams, selection: Selection | null) => Promise<Response>;
  /** The public key published at /v1/snapshot/public-key, or null. */
  publicKey: { pem: string; fingerprint: string } | null;
  /** Absent where no key store is wired (a test's bare router): the admin routes then fail as `internal`. */
  admin?: AdminDeps;
  /** Webhook endpoints and deliveries (proxy/webhooks/); absent: those routes fail as `internal`. */
  webhooks?: WebhookDeps;
  /** Serves the OpenAPI document (routes/openapi.ts). */
  document?: (c: Context<ProxyEnv>) => Promise<Response>;
}

/** The checked request: the route's parameters, `page`/`limit` when it is a list, the JSON body when it takes one. */
export interface RouteRequest<P extends Params> {
  values: Values<P>;
  page: ListParams | null;
  body: Record<string, unknown> | null;
}

export type Answer<P extends Params> =
  /** The stored document at this object key; 404 naming `what` when it is absent. */
  | { document(values: Values<P>): string; what: string }
  /** A page of this stored list (the route must page); 404 naming `what` when it is absent. */
  | { list(values: Values<P>): ListFamily; what: string }
  | { handler(c: Context<ProxyEnv>, request: RouteRequest<P>, deps: RouteDeps): Promise<Response> | Response };

/** A catalog read in the document: an envelope of `kind`, with the responses every read shares (route-spec.ts). */
export interface ReadDoc {
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  /** `partner`: a credential is needed; `public`: none (the showcase). */
  access: 'partner' | 'public';
  kind: DocumentKind;
  /** Schema of `data` (of one item for a list). */
  data: Schema;
  /** A request answered 200 from the example catalog: its body becomes the example. */
  example: string;
  /** A request answered 404 from the example catalog; absent when the route cannot be 404. */
  notFound?: string;
}

export type RouteDoc =
  | { read: ReadDoc }
  /** Documented and audited as one route per value of this path parameter (the discover feeds). */
  | { each: string; read: Record<string, ReadDoc> }
  /** Any other answer, written out; `parameters` are the route's, as the document refers to them. */
  | { tag: string; operation(parameters: Schema[]): CustomOperation };

export type Method = 'get' | 'post' | 'delete';

export interface Route<P extends Params = Params> {
  /** The OpenAPI path (`/v1/cards/{id}`); Hono's is derived (`:id`, `*` for a rest parameter). */
  path: string;
  /** Default `get` (which answers HEAD too). Outside the partner paths, any method no entry of the path declares is 405 naming those that are. */
  method?: Method;
  /** `internal`: only the internal key (403 for any other caller), checked before anything else. */
  caller?: 'internal';
  /**
   * `ignored`: query parameters are not looked at. Only the key administration writes, which never
   * refused them; every other route refuses one it does not declare.
   */
  query?: 'ignored';
  /** A JSON object body with only these fields (400 naming another); `optional`: an empty body is `{}`. */
  body?: { fields: readonly string[]; optional?: boolean };
  /** Checked in this order, after unknown query parameters are refused; path parameters first. */
  params: P;
  /** The default `limit` of a list route; a list takes `page` and `limit`, checked after `params`. */
  paging?: number;
  answer: Answer<P>;
  doc: RouteDoc;
}

/** A route with its parameter types checked against its answer. */
export function route<P extends Params>(r: Route<P>): Route {
  return r as unknown as Route;
}
