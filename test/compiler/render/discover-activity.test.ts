import { describe, expect, it } from 'vitest';
import { ACTIVITY_MIN_COUNT, renderDiscoverActivity } from '../../../compiler/render/discover-activity.js';
import { event } from './fixtures.js';

const many = (n: number, at: string, type: 'pull' | 'binder_add' | 'wishlist_add' | 'price_alert', prefix: string) =>
  Array.from({ length: n }, (_, i) => event(`${prefix}${i}`, at, { type, userId: `u${i}` }));

describe('renderDiscoverActivity', () => {
  const events = [
    ...many(ACTIVITY_MIN_COUNT, '2026-11-20T08:00:00.000Z', 'pull', 'p'), // exactly the threshold: published
    ...many(ACTIVITY_MIN_COUNT - 1, '2026-11-20T09:00:00.000Z', 'binder_add', 'b'), // one under: suppressed
    ...many(7, '2026-10-22T23:59:59.999Z', 'wishlist_add', 'w'), // day 30 of the window (the oldest)
    ...many(9, '2026-10-21T12:00:00.000Z', 'wishlist_add', 'x'), // day 31: outside the window
  ];
  const feed = renderDiscoverActivity(events);
  const items = feed.pages.flatMap((p) => p.data);

  it('when events fall over several days then there is one cell per day of the 30-day window per type', () => {
    expect(feed.family).toEqual({ kind: 'discover', feed: 'activity' });
    expect(items).toHaveLength(30 * 4);
    expect(feed.pages.map((p) => p.data.length)).toEqual([100, 20]);
    expect(items[0].date).toBe('2026-11-20T00:00:00.000Z');
    expect(items.at(-1)!.date).toBe('2026-10-22T00:00:00.000Z');
    expect(items.slice(0, 4).map((i) => i.type)).toEqual(['binder_add', 'price_alert', 'pull', 'wishlist_add']);
    expect(feed.pages[0].asOf).toBe('2026-11-20T09:00:00.000Z');
  });

  it('when a cell holds fewer than ACTIVITY_MIN_COUNT events then its count is null', () => {
    const cell = (date: string, type: string) => items.find((i) => i.date === `${date}T00:00:00.000Z` && i.type === type)!;
    expect(cell('2026-11-20', 'pull').count).toBe(5);
    expect(cell('2026-11-20', 'binder_add').count).toBeNull();
    expect(cell('2026-11-20', 'price_alert').count).toBeNull(); // 0 is also under the threshold
    expect(cell('2026-10-22', 'wishlist_add').count).toBe(7);
    expect(items.some((i) => i.date.startsWith('2026-10-21'))).toBe(false);
  });

  it('when rendered then no user id or entity id appears, only dates, types and counts', () => {
    for (const item of items) expect(Object.keys(item).sort()).toEqual(['count', 'date', 'type']);
    expect(JSON.stringify(feed)).not.toMatch(/"u\d|c1/);
  });

  it('when there are no events then the feed is one empty page with asOf null', () => {
    const empty = renderDiscoverActivity([]);
    expect(empty.pages).toHaveLength(1);
    expect(empty.pages[0]).toMatchObject({ data: [], asOf: null, page: { total: 0 } });
  });
});
