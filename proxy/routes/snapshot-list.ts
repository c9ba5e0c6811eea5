/**
 * GET /v1/snapshots — the kept snapshots (id, creation time, counts), newest first, a page at a time
 * like every list (page/limit, a page block, Link). Each one can be read as of its time with
 * `snapshot=<id>` on any catalog route until it is pruned. Built per request from the summaries
 * (snapshot-list.ts); the ETag is the SHA-256 of the body, so it changes exactly when a publish or a
 * prune changes the page.
 */
import type { Context } from 'hono';
import { envelope, pageInfo } from '../../snapshots/envelope.js';
import type { ProxyEnv } from '../env.js';
import { linkHeader, type ListParams } from '../http/params.js';
import { ATOM_CONTENT_TYPE, atomFeed } from '../snapshot-files/atom-feed.js';
import { respondBody, respondJson } from '../snapshot-files/respond-json.js';
import type { SnapshotList } from '../snapshot-files/snapshot-list.js';

export async function answerSnapshotList(c: Context<ProxyEnv>, list: SnapshotList, params: ListParams): Promise<Response> {
  const { page, limit, warnings } = params;
  const all = await list.summaries(c);
  const items = all.slice((page - 1) * limit, page * limit).map((s) => ({ ...s, url: `/v1/snapshot?snapshot=${s.snapshotId}` }));
  const link = linkHeader(c.req.url, page, limit, all.length);
  return respondJson(c, envelope('snapshots', all[0]?.asOf ?? null, items, pageInfo(page, limit, all.length), warnings), link === null ? {} : { Link: link });
}

/** GET /v1/snapshot/feed — the same summaries as an Atom feed (atom-feed.ts), ETag and 304 as for the other snapshot routes. */
export async function answerSnapshotFeed(c: Context<ProxyEnv>, list: SnapshotList): Promise<Response> {
  return respondBody(c, atomFeed(await list.summaries(c), '/v1/snapshot/feed'), ATOM_CONTENT_TYPE);
}
