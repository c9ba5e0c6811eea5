/**
 * The public showcase (`/v1/u/:handle` and `/v1/u/:handle/binders`): a public user's profile and
 * public binders. A user who is not public gets no document at all, so the proxy answers 404 for
 * their handle exactly as for a handle that never existed (API.md §4).
 */
import { envelope, toTimestamp, type Envelope } from '../../snapshots/envelope.js';
import type { BinderRecord, UserRecord } from '../../snapshots/records.js';
import { laterOf } from './as-of.js';
import { compareDesc, compareText } from './order.js';
import { paginate, type RenderedList } from './paginate.js';
import { isPublicUser, isPublishedBinder, type PublicUser } from './privacy.js';
import { summarizeItems, type CatalogIndex, type EntitySummary } from './summaries.js';

export interface ShowcaseBinderRef {
  id: string;
  name: string;
  itemCount: number;
  updatedAt: string;
}

export interface Showcase {
  handle: string;
  displayName: string | null;
  joinedAt: string;
  binders: ShowcaseBinderRef[];
}

export type ShowcaseBinder = ShowcaseBinderRef & { items: EntitySummary[] };

export interface ShowcaseDocuments {
  handle: string;
  showcase: Envelope<Showcase>;
  binders: RenderedList<ShowcaseBinder>;
}

/** The user's published binders, most recently updated first, then id. */
function publicBindersOf(user: UserRecord, binders: Iterable<BinderRecord>): BinderRecord[] {
  const out: BinderRecord[] = [];
  for (const b of binders) if (isPublishedBinder(b, user)) out.push(b);
  return out.sort((a, b) => compareDesc(a.updatedAt, b.updatedAt) || compareText(a.id, b.id));
}

function binderRef(b: BinderRecord): ShowcaseBinderRef {
  return { id: b.id, name: b.name, itemCount: b.items.length, updatedAt: toTimestamp(b.updatedAt) };
}

/** The profile document, or null when the user is not public. asOf: the latest joinedAt/updatedAt shown. */
export function renderShowcase(user: UserRecord, binders: Iterable<BinderRecord>): Envelope<Showcase> | null {
  if (!isPublicUser(user)) return null;
  const shown = publicBindersOf(user, binders);
  let asOf: string | null = user.joinedAt;
  for (const b of shown) asOf = laterOf(asOf, b.updatedAt);
  return envelope('showcase', asOf, {
    handle: user.handle,
    displayName: user.displayName,
    joinedAt: toTimestamp(user.joinedAt),
    binders: shown.map(binderRef),
  });
}

/**
 * The public binders with their items as summaries (items not in the catalog are skipped); empty
 * for a user who is not public. asOf: the latest updatedAt or item price date shown.
 */
export function renderShowcaseBinderPages(
  user: UserRecord, binders: Iterable<BinderRecord>, index: CatalogIndex,
): Envelope<ShowcaseBinder[]>[] {
  if (!isPublicUser(user)) return [];
  let asOf: string | null = null;
  const items = publicBindersOf(user, binders).map((b): ShowcaseBinder => {
    const summaries = summarizeItems(b.items, index);
    asOf = laterOf(asOf, b.updatedAt);
    for (const s of summaries) asOf = laterOf(asOf, s.priceDate);
    return { ...binderRef(b), items: summaries };
  });
  return paginate('showcaseBinders', items, asOf);
}

/** Both showcase documents of one user, or null when the user is not public (nothing is published). */
export function renderShowcases(user: UserRecord, binders: Iterable<BinderRecord>, index: CatalogIndex): ShowcaseDocuments | null {
  if (!isPublicUser(user)) return null;
  const own = [...binders];
  return {
    handle: user.handle,
    showcase: renderShowcase(user, own)!,
    binders: { family: { kind: 'showcaseBinders', handle: user.handle }, pages: renderShowcaseBinderPages(user, own, index) },
  };
}

/** A public user and every binder they own (renderShowcases picks the published ones). */
export interface ShowcaseOwner {
  user: PublicUser;
  binders: BinderRecord[];
}

/** Every public user with their binders, in handle order (the compile renders or re-uses each one's documents). */
export function showcaseOwners(users: Iterable<UserRecord>, binders: Iterable<BinderRecord>): ShowcaseOwner[] {
  const byOwner = new Map<string, BinderRecord[]>();
  for (const b of binders) {
    const list = byOwner.get(b.userId);
    if (list) list.push(b);
    else byOwner.set(b.userId, [b]);
  }
  const out: ShowcaseOwner[] = [];
  for (const u of users) if (isPublicUser(u)) out.push({ user: u, binders: byOwner.get(u.id) ?? [] });
  return out.sort((a, b) => compareText(a.user.handle, b.user.handle));
}

/** Showcase documents of every public user, in handle order; binders are grouped by owner once. */
export function renderAllShowcases(
  users: Iterable<UserRecord>, binders: Iterable<BinderRecord>, index: CatalogIndex,
): ShowcaseDocuments[] {
  return showcaseOwners(users, binders).map(({ user, binders: own }) => renderShowcases(user, own, index)!);
}
