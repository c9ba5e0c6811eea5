/**
 * The one place that decides who may appear in a published document (API.md §2.6, a fixed rule):
 * only users who opted into the showcase, are not anonymous and have a handle, and only their public
 * binders. Every renderer that touches users or binders goes through these functions, so the rule
 * cannot drift between feeds.
 */
import type { BinderRecord, UserRecord } from '../../snapshots/records.js';

/** A user narrowed to one that may be named: the handle is known to be present. */
export type PublicUser = UserRecord & { handle: string };

export function isPublicUser(u: UserRecord): u is PublicUser {
  return u.showcase && !u.anonymous && u.handle !== null;
}

/** A binder is published only when it is public AND its owner is a public user. */
export function isPublishedBinder(binder: BinderRecord, owner: UserRecord | undefined): owner is PublicUser {
  return binder.public && owner !== undefined && owner.id === binder.userId && isPublicUser(owner);
}

/** The public users by id; anyone absent from this map must not be named anywhere. */
export function publicUsersById(users: Iterable<UserRecord>): Map<string, PublicUser> {
  const byId = new Map<string, PublicUser>();
  for (const u of users) if (isPublicUser(u)) byId.set(u.id, u);
  return byId;
}

/** The published binders (public binders of public users), with their owner. */
export function publishedBinders(
  binders: Iterable<BinderRecord>,
  publicUsers: ReadonlyMap<string, PublicUser>,
): { binder: BinderRecord; owner: PublicUser }[] {
  const out: { binder: BinderRecord; owner: PublicUser }[] = [];
  for (const binder of binders) {
    const owner = publicUsers.get(binder.userId);
    if (isPublishedBinder(binder, owner)) out.push({ binder, owner });
  }
  return out;
}
