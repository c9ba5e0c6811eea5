/**
 * GET /v1/search (API.md §3, docs/search.md): answered from the snapshot's FTS5 index, not from a
 * stored document, so its body is hashed, compressed and revalidated per request (respond-negotiated.ts).
 */
import type { Context } from 'hono';
import type { ProxyEnv } from '../env.js';
import type { SnapshotReader } from '../../snapshots/store/types.js';
import { envelope, pageInfo } from '../../snapshots/envelope.js';
import { stableJson } from '../../snapshots/codec.js';
import { linkHeader, type ListParams } from '../http/params.js';
import { respondNegotiated } from '../http/respond-negotiated.js';
import { JSON_CONTENT_TYPE, READ_CACHE_CONTROL } from '../serve-object/respond-object.js';
import type { SearchQuery } from '../search/query.js';
import { selectEnvelope, type Selection } from '../serve-object/selection.js';
import { planSearch } from '../search/plan.js';
import { MAX_COUNTED, type SearchHit } from '../search/search-index.js';
import { createSearchIndexCache, type SearchIndexCache } from '../search/index-cache.js';

export interface SearchRouteDeps {
  /** Resolves the snapshot for this request (the caller already pinned it), or throws `unavailable`. */
  snapshot: (c: Context<ProxyEnv>) => Promise<SnapshotReader>;
  /** Open index handles; by default the route keeps its own (pass one to close it at shutdown). */
  indexes?: SearchIndexCache;
}

/**
 * One result item: the compiler's summary with `kind`, `id`, `game` and `match` (the relevance tier)
 * laid over it, so every item of a kind has the summary's keys plus these four.
 */
function toItem(hit: SearchHit): Record<string, unknown> {
  const summary = JSON.parse(hit.summary) as unknown;
  const base = summary !== null && typeof summary === 'object' && !Array.isArray(summary) ? summary : { summary };
  return { ...base, kind: hit.kind, id: hit.id, game: hit.game, match: hit.tier };
}

/** The answer of the search route (route-table/catalog-table.ts), whose `q`, `page` and `limit` are checked already. */
export function createSearchAnswer(deps: SearchRouteDeps): (c: Context<ProxyEnv>, query: SearchQuery, list: ListParams, selection?: Selection | null) => Promise<Response> {
  const indexes = deps.indexes ?? createSearchIndexCache();

  return async (c, query, list, selection = null) => {
    const { page, limit } = list;
    // The query's own warnings first, then those of page and limit.
    const warnings = [...query.warnings, ...list.warnings];

    const reader = await deps.snapshot(c);
    c.set('snapshotId', reader.id);
    const index = await indexes.forSnapshot(reader);
    const result = index.search(planSearch(query), page, limit);
    if (result.capped) warnings.push(`total capped at ${MAX_COUNTED}`);

    const full = envelope('search', index.asOf, result.hits.map(toItem), pageInfo(page, limit, result.total), warnings);
    // A selection is applied to the items built per request anyway: no cache needed (the ETag is the body's hash).
    const body = stableJson(selection === null ? full : selectEnvelope(selection, full));
    const headers: Record<string, string> = { 'X-Snapshot-Id': reader.id, 'Cache-Control': READ_CACHE_CONTROL, 'Content-Type': JSON_CONTENT_TYPE };
    const link = linkHeader(c.req.url, page, limit, result.total);
    if (link !== null) headers.Link = link;
    return respondNegotiated(c, body, 200, headers, { etag: true });
  };
}
