/**
 * `/v1/discover/users`: the users who opted into the public showcase, newest first. Nobody else
 * appears (privacy.ts); counts cover only what those users made public.
 */
import { toTimestamp } from '../../snapshots/envelope.js';
import type { BinderRecord, UserRecord } from '../../snapshots/records.js';
import { laterOf } from './as-of.js';
import { compareDesc, compareText } from './order.js';
import { paginate, type RenderedList } from './paginate.js';
import { publicUsersById, publishedBinders } from './privacy.js';

export interface DiscoverUserItem {
  handle: string;
  displayName: string | null;
  joinedAt: string;
  /** Number of the user's public binders. */
  publicBinders: number;
  /** Items across those public binders. */
  items: number;
}

/** Sorted by joinedAt desc, then handle. asOf: the latest joinedAt or public binder updatedAt shown. */
export function renderDiscoverUsers(users: Iterable<UserRecord>, binders: Iterable<BinderRecord>): RenderedList<DiscoverUserItem> {
  const publicUsers = publicUsersById(users);
  const totals = new Map<string, { binders: number; items: number }>();
  let asOf: string | null = null;
  for (const { binder, owner } of publishedBinders(binders, publicUsers)) {
    let t = totals.get(owner.id);
    if (!t) totals.set(owner.id, (t = { binders: 0, items: 0 }));
    t.binders++;
    t.items += binder.items.length;
    asOf = laterOf(asOf, binder.updatedAt);
  }
  const sorted = [...publicUsers.values()].sort(
    (a, b) => compareDesc(a.joinedAt, b.joinedAt) || compareText(a.handle, b.handle) || compareText(a.id, b.id),
  );
  const items = sorted.map((u): DiscoverUserItem => {
    asOf = laterOf(asOf, u.joinedAt);
    const t = totals.get(u.id);
    return { handle: u.handle, displayName: u.displayName, joinedAt: toTimestamp(u.joinedAt), publicBinders: t?.binders ?? 0, items: t?.items ?? 0 };
  });
  return { family: { kind: 'discover', feed: 'users' }, pages: paginate('discoverUsers', items, asOf) };
}
