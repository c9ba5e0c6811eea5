/**
 * Which complete snapshots a prune keeps (issue 20, as-of reads): the newest `keep`, plus the newest
 * snapshot of each of the last `keepDaily` UTC days. One pure function, used by the folder prune
 * (fs.ts pruneSnapshots) and the object-store prune (publish-prune.ts), so both stores keep exactly
 * the same ids for the same list.
 *
 * The days count back from the day of the NEWEST snapshot, not from the clock: the answer depends only
 * on the list (testable, and the same on every host), and a compile that stops for a week does not
 * wipe the daily history when it starts again. A snapshot id begins with its UTC creation time
 * (`20261122T020000Z-…`), so its day is its first 8 characters and ids sort by time.
 *
 * @example
 *   retainedSnapshots(['20261120T020000Z-aaaaaaaa', '20261121T020000Z-bbbbbbbb', '20261121T140000Z-cccccccc'], { keep: 1, keepDaily: 2 })
 *   // ['20261120T020000Z-aaaaaaaa', '20261121T140000Z-cccccccc']
 */
import { CatalogError } from '../errors.js';

export interface Retention {
  /** The newest snapshots kept whatever their day (at least 1). */
  keep: number;
  /** Also keep the newest snapshot of each of this many UTC days, the newest snapshot's day included (0: none). */
  keepDaily?: number;
}

const DAY_MS = 86_400_000;

/** `20261122T…` → ms of 2026-11-22T00:00:00Z. */
function dayOf(id: string): number {
  return Date.UTC(Number(id.slice(0, 4)), Number(id.slice(4, 6)) - 1, Number(id.slice(6, 8)));
}

/** A retention given as a number (`--keep N` alone) or in full, with its bounds checked. */
export function retentionOf(r: number | Retention): Required<Retention> {
  const { keep, keepDaily = 0 } = typeof r === 'number' ? { keep: r } : r;
  if (!Number.isSafeInteger(keep) || keep < 1) throw new CatalogError('usage', `--keep must be a whole number >= 1, got ${keep}`, { option: 'keep' });
  if (!Number.isSafeInteger(keepDaily) || keepDaily < 0) throw new CatalogError('usage', `--keep-daily must be a whole number >= 0, got ${keepDaily}`, { option: 'keep-daily' });
  return { keep, keepDaily };
}

/** The ids of `complete` (snapshot ids, any order) that `retention` keeps, oldest first. */
export function retainedSnapshots(complete: readonly string[], retention: number | Retention): string[] {
  const { keep, keepDaily } = retentionOf(retention);
  const sorted = [...complete].sort();
  const kept = new Set(sorted.slice(-keep));
  if (keepDaily > 0 && sorted.length > 0) {
    const oldestDay = dayOf(sorted[sorted.length - 1]) - (keepDaily - 1) * DAY_MS;
    const newestOfDay = new Map<number, string>();
    // Ascending order: the last id seen for a day is that day's newest.
    for (const id of sorted) if (dayOf(id) >= oldestDay) newestOfDay.set(dayOf(id), id);
    for (const id of newestOfDay.values()) kept.add(id);
  }
  return sorted.filter((id) => kept.has(id));
}
