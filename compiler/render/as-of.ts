/**
 * `asOf` of a document is when its data was true (API.md §2.5): the latest date among the inputs it
 * shows, never the clock, so an unchanged document stays byte-identical across compiles.
 *
 * Dates (`YYYY-MM-DD`) and canonical instants (`YYYY-MM-DDTHH:MM:SS.mmmZ`) compare correctly as plain
 * text, even mixed: a date is a prefix of the instants of its own day, so it sorts as their midnight.
 */
export function laterOf(a: string | null, b: string | null | undefined): string | null {
  if (b === null || b === undefined) return a;
  if (a === null) return b;
  return b > a ? b : a;
}

/** The latest of some dates or instants, or null when there are none. */
export function latestOf(values: Iterable<string | null | undefined>): string | null {
  let latest: string | null = null;
  for (const v of values) latest = laterOf(latest, v);
  return latest;
}
