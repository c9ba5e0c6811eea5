import { describe, expect, it } from 'vitest';
import { isPublicUser } from '../../../compiler/render/privacy.js';
import { renderShowcase, renderShowcaseBinderPages, renderShowcases } from '../../../compiler/render/showcase.js';
import { binder, indexOf, user } from './fixtures.js';
import { HIDDEN, renderEverything, sampleCatalog } from './sample-catalog.js';

describe('isPublicUser', () => {
  it('when a user opted in, is not anonymous and has a handle then they are public, and otherwise not', () => {
    expect(isPublicUser(user('u'))).toBe(true);
    expect(isPublicUser(user('u', { showcase: false }))).toBe(false);
    expect(isPublicUser(user('u', { anonymous: true }))).toBe(false);
    expect(isPublicUser(user('u', { handle: null }))).toBe(false);
  });
});

describe('privacy invariant across every list and aggregate document', () => {
  const c = sampleCatalog();
  const docs = renderEverything(c);
  const text = [...docs.entries()].map(([name, doc]) => `${name}\n${JSON.stringify(doc)}`).join('\n');

  it.each([
    ['a user who did not opt in', [HIDDEN.optedOut.id, HIDDEN.optedOut.handle, HIDDEN.optedOut.displayName]],
    ['an anonymous user', [HIDDEN.anonymous.id, HIDDEN.anonymous.displayName, 'user-anon-handle-3b', 'anon-leftover-handle', 'Anon Leftover', 'Anon Binder Name', 'binder-anon-5a']],
    ['a private binder of a public user', [HIDDEN.privateBinder.id, HIDDEN.privateBinder.name]],
    ['a public binder of a user who did not opt in', [HIDDEN.hiddenOwnerBinder.id, HIDDEN.hiddenOwnerBinder.name]],
  ])('when the catalog holds %s then no document names them', (_what, needles) => {
    expect(docs.size).toBeGreaterThan(20);
    for (const needle of needles) expect(text).not.toContain(needle);
  });

  it('when activity and pull reports come from hidden users then their ids appear nowhere', () => {
    expect(text).not.toContain('e-hidden');
    expect(text).not.toContain('obs-');
  });

  it('when the public users are counted then only opted-in, non-anonymous users and their public binders count', () => {
    const summary = docs.get('catalog/summary')!.data as { publicUsers: number; publicBinders: number };
    expect(summary).toMatchObject({ publicUsers: 2, publicBinders: 2 });
    const users = docs.get('{"kind":"discover","feed":"users"}/page-1');
    expect((users!.data as { handle: string }[]).map((u) => u.handle)).toEqual(['bob', 'alice']);
    const showcases = [...docs.keys()].filter((k) => k.startsWith('u/') && !k.includes('/binders'));
    expect(showcases).toEqual(['u/alice', 'u/bob']);
  });

  it('when a user is not public then renderShowcases returns null and the single renderers render nothing', () => {
    const index = indexOf({});
    const own = (u: ReturnType<typeof user>) => [binder(`b-${u.id}`, u.id)];
    for (const hidden of [user('x', { showcase: false }), user('y', { anonymous: true }), user('z', { handle: null })]) {
      expect(renderShowcases(hidden, own(hidden), index)).toBeNull();
      expect(renderShowcase(hidden, own(hidden))).toBeNull();
      expect(renderShowcaseBinderPages(hidden, own(hidden), index)).toEqual([]);
    }
    expect(renderShowcases(user('w'), own(user('w')), index)).not.toBeNull();
  });

  it('when a binder list of a public user includes binders of other users then only their own public ones are shown', () => {
    const alice = user('alice');
    const doc = renderShowcase(alice, [binder('mine', 'alice'), binder('theirs', 'someone-else'), binder('hidden', 'alice', { public: false })])!;
    expect(doc.data.binders.map((b) => b.id)).toEqual(['mine']);
  });
});
