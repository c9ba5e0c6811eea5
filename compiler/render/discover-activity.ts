/**
 * `/v1/discover/activity`: how much happened per day, per activity type, over the last 30 days.
 *
 * Counts include every event, public user or not, because a count names nobody. What could name
 * someone is a small count (one user's lone action on a quiet day), so a cell under
 * ACTIVITY_MIN_COUNT is published as null, and there is deliberately no breakdown per user or per
 * card/figure.
 */
import { addDays } from '../../snapshots/dates.js';
import { toTimestamp } from '../../snapshots/envelope.js';
import { ACTIVITY_TYPES, type ActivityEventRecord, type ActivityType } from '../../snapshots/records.js';
import { laterOf } from './as-of.js';
import { compareText } from './order.js';
import { paginate, type RenderedList } from './paginate.js';

/** Smallest count published; smaller ones (0 included) are null. */
export const ACTIVITY_MIN_COUNT = 5;
export const ACTIVITY_WINDOW_DAYS = 30;

export interface DiscoverActivityItem {
  date: string;
  type: ActivityType;
  count: number | null;
}

const CANONICAL_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** UTC day of an event; the canonical form is sliced, anything else goes through Date once. */
function dayOf(at: string): string {
  return CANONICAL_INSTANT.test(at) ? at.slice(0, 10) : toTimestamp(at).slice(0, 10);
}

/**
 * Items for every (day, type) of the 30 days ending on the day of the latest event, sorted by date
 * desc then type; no events at all gives an empty feed. asOf: the latest event's instant.
 */
export function renderDiscoverActivity(events: Iterable<ActivityEventRecord>): RenderedList<DiscoverActivityItem> {
  const counts = new Map<string, number>();
  let latest: string | null = null;
  for (const e of events) {
    const instant = CANONICAL_INSTANT.test(e.at) ? e.at : toTimestamp(e.at);
    latest = laterOf(latest, instant);
    const key = `${dayOf(instant)}|${e.type}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const items: DiscoverActivityItem[] = [];
  if (latest !== null) {
    const lastDay = dayOf(latest);
    const types = [...ACTIVITY_TYPES].sort(compareText);
    for (let i = 0; i < ACTIVITY_WINDOW_DAYS; i++) {
      const day = addDays(lastDay, -i);
      for (const type of types) {
        const count = counts.get(`${day}|${type}`) ?? 0;
        items.push({ date: toTimestamp(day), type, count: count >= ACTIVITY_MIN_COUNT ? count : null });
      }
    }
  }
  return { family: { kind: 'discover', feed: 'activity' }, pages: paginate('discoverActivity', items, latest) };
}
