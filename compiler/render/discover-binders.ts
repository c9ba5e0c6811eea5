/**
 * `/v1/discover/binders`: public binders of public users, most recently updated first, each with a
 * preview of its first items.
 */
import { toTimestamp } from '../../snapshots/envelope.js';
import type { BinderRecord, UserRecord } from '../../snapshots/records.js';
import { laterOf } from './as-of.js';
import { compareDesc, compareText } from './order.js';
import { paginate, type RenderedList } from './paginate.js';
import { publicUsersById, publishedBinders } from './privacy.js';
import { summarizeItems, type CatalogIndex, type EntitySummary } from './summaries.js';

export const PREVIEW_SIZE = 4;

export interface DiscoverBinderItem {
  id: string;
  name: string;
  owner: { handle: string; displayName: string | null };
  itemCount: number;
  updatedAt: string;
  preview: EntitySummary[];
}

/** Sorted by updatedAt desc, then id. asOf: the latest updatedAt or preview price date shown. */
export function renderDiscoverBinders(
  users: Iterable<UserRecord>, binders: Iterable<BinderRecord>, index: CatalogIndex,
): RenderedList<DiscoverBinderItem> {
  const published = publishedBinders(binders, publicUsersById(users));
  published.sort((a, b) => compareDesc(a.binder.updatedAt, b.binder.updatedAt) || compareText(a.binder.id, b.binder.id));
  let asOf: string | null = null;
  const items = published.map(({ binder, owner }): DiscoverBinderItem => {
    const preview = summarizeItems(binder.items, index, PREVIEW_SIZE);
    asOf = laterOf(asOf, binder.updatedAt);
    for (const p of preview) asOf = laterOf(asOf, p.priceDate);
    return {
      id: binder.id,
      name: binder.name,
      owner: { handle: owner.handle, displayName: owner.displayName },
      itemCount: binder.items.length,
      updatedAt: toTimestamp(binder.updatedAt),
      preview,
    };
  });
  return { family: { kind: 'discover', feed: 'binders' }, pages: paginate('discoverBinders', items, asOf) };
}
