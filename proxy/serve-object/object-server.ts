/**
 * What every catalog route needs, built once per app: pin the request's snapshot, then answer with
 * one document or one list page from it. Holds the pointer and the object cache, nothing else.
 *
 * @example
 *   const serve = createObjectServer({ snapshots: createFsSnapshotSource(root) });
 *   router.get('/v1/figures/:id', (c) => serve.document(c, figureKey(id), 'figure'));
 */
import type { Context } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import type { ListFamily } from '../../snapshots/keys.js';
import type { SnapshotReader, SnapshotSource } from '../../snapshots/store/types.js';
import type { ProxyEnv } from '../env.js';
import { linkHeader, type ListParams } from '../http/params.js';
import { createObjectCache, type ObjectCache } from './object-cache.js';
import { createObjectLoader, type ObjectLoader, type ServedObject } from './object-loader.js';
import { loadListView } from './list-view.js';
import { respondObject } from './respond-object.js';
import { selectEnvelope, selectionKey, type Selection } from './selection.js';
import { decodeDocument, encodeDocument } from '../../snapshots/codec.js';
import type { Envelope } from '../../snapshots/envelope.js';
import { createSnapshotPointer } from './snapshot-pointer.js';

export interface ObjectServer {
  /** The snapshot this request reads, resolved once and then kept; 503 before the first publish. */
  pin(c: Context<ProxyEnv>): Promise<SnapshotReader>;
  /**
   * Pins the kept snapshot `snapshotId` for this request (an as-of read, `?snapshot=<id>`: every
   * later `pin` of the request returns it), or the current one when undefined; 410 `gone` when it is
   * no longer kept. The id is checked already (route-table/params.ts).
   */
  pinAt(c: Context<ProxyEnv>, snapshotId: string | undefined): Promise<SnapshotReader>;
  /** A kept snapshot by id (`snapshot`, `since`), or 410 `gone` naming `parameter`. */
  kept(id: string, parameter: string): Promise<SnapshotReader>;
  /** Answers with the object at `key` of the pinned snapshot; 404 naming `what` when it is absent. */
  document(c: Context<ProxyEnv>, key: string, what: string): Promise<Response>;
  /**
   * Answers with one page of a list (sliced from the stored pages when needed), with a Link header;
   * with a selection (`fields`, `view=ids`), only those fields of each item (selection.ts).
   */
  list(c: Context<ProxyEnv>, family: ListFamily, params: ListParams, what: string, selection?: Selection | null): Promise<Response>;
  readonly loader: ObjectLoader;
}

export interface ObjectServerOptions {
  snapshots: SnapshotSource;
  cacheBytes?: number;
  /** The object cache to use (made from `cacheBytes` when absent); passed in so its hit counts can be read. */
  cache?: ObjectCache<ServedObject>;
  /** How long a resolved `current` pointer is re-used (default 250 ms). */
  pointerTtlMs?: number;
}

/**
 * The page with only the selected fields, built once from the page the full answer sends and kept
 * in the same byte-bounded cache (keyed by that page and the selection), so a repeated selection
 * costs what a stored page costs and memory stays within the cache budget. Its ETag is the SHA-256
 * of its own gzip bytes, deterministic like every encoded document: stable for the same page and selection.
 */
function selectedView(loader: ObjectLoader, page: ServedObject & { total: number }, selection: Selection): ServedObject {
  const key = `${page.cacheKey}\u0000${selectionKey(selection)}`;
  const hit = loader.lookup(key);
  if (hit) return hit;
  const doc = decodeDocument<Envelope<unknown[]>>(page.gzip);
  return loader.remember(key, encodeDocument(selectEnvelope(selection, doc)), page.total);
}

export function createObjectServer(options: ObjectServerOptions): ObjectServer {
  const pointer = createSnapshotPointer(options.snapshots, { ttlMs: options.pointerTtlMs });
  const loader = createObjectLoader(options.cache ?? createObjectCache<ServedObject>({ maxBytes: options.cacheBytes }));
  // Keyed by the request object, so the pin lives exactly as long as the request.
  const pinned = new WeakMap<Request, SnapshotReader>();

  const pin = async (c: Context<ProxyEnv>): Promise<SnapshotReader> => {
    const held = pinned.get(c.req.raw);
    if (held) return held;
    const reader = await pointer.current();
    if (reader === null) throw new CatalogError('unavailable', 'no catalog snapshot has been published yet; try again later');
    pinned.set(c.req.raw, reader);
    c.set('snapshotId', reader.id);
    return reader;
  };

  const kept = async (id: string, parameter: string): Promise<SnapshotReader> => {
    const reader = await options.snapshots.open(id);
    if (reader === null) {
      throw new CatalogError('gone', `snapshot ${id} is no longer kept (${parameter}); start again from GET /v1/snapshot`, { parameter });
    }
    return reader;
  };

  return {
    pin,
    kept,
    async pinAt(c, snapshotId) {
      if (snapshotId === undefined) return pin(c);
      const held = pinned.get(c.req.raw);
      if (held?.id === snapshotId) return held;
      const reader = await kept(snapshotId, 'snapshot');
      pinned.set(c.req.raw, reader);
      c.set('snapshotId', reader.id);
      return reader;
    },
    async document(c, key, what) {
      const reader = await pin(c);
      const obj = await loader.load(reader, key);
      if (obj === null) throw new CatalogError('not_found', `no ${what} at ${c.req.path}`);
      return respondObject(c, loader, obj);
    },
    async list(c, family, params, what, selection = null) {
      const reader = await pin(c);
      const obj = await loadListView(loader, reader, family, params);
      if (obj === null) throw new CatalogError('not_found', `no ${what} at ${c.req.path}`);
      const sent = selection === null ? obj : selectedView(loader, obj, selection);
      return respondObject(c, loader, sent, { link: linkHeader(c.req.url, params.page, params.limit, obj.total) });
    },
    loader,
  };
}
