/**
 * What the compile hands the search index builder for each searchable item.
 */
import type { Game } from '../../snapshots/records.js';
import type { SearchKind } from '../../snapshots/search-schema.js';

export interface SearchEntry {
  kind: SearchKind;
  id: string;
  /** The card's or set's game; null for figures. */
  game: Game | null;
  name: string;
  setName: string | null;
  artist: string | null;
  /** Collector number as printed, or null. */
  number: string | null;
  /** Watchers: higher is more popular. Ties are broken by id. */
  popularity: number;
  /** The JSON item search returns for this entry (the same summary object the lists use). */
  summary: unknown;
}
