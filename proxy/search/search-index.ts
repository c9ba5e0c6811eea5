/**
 * One snapshot's search index opened read-only, with every statement prepared once. `search` runs a
 * plan (plan.ts): the tiers in order, each LIMITed to the end of the requested page, merged without
 * duplicates; `total` is counted up to MAX_COUNTED matches (beyond that it is reported as the cap).
 * At most 7 statements run per search (widest tier, exact, four more tiers, one row fetch per hit).
 *
 * @example
 *   const index = openSearchIndex('/data/snapshots/<id>/search.sqlite');
 *   index.search(planSearch(parseSearchQuery('char')), 1, 20)  // { hits: [...], total: 1000, capped: true }
 */
import Database from 'better-sqlite3';
import { CatalogError } from '../../snapshots/errors.js';
import { SEARCH_META_AS_OF, SEARCH_SCHEMA_VERSION } from '../../snapshots/search-schema.js';
import type { MatchTier, SearchPlan } from './plan.js';

/**
 * Counting every match of a 2-letter prefix would walk most of the index; partners page through a
 * few screens of type-ahead, not ten thousand results. Past this many, `total` is this number and a
 * warning says so, and pages starting past it are empty.
 */
export const MAX_COUNTED = 1000;

export interface SearchHit {
  tier: MatchTier;
  kind: string;
  id: string;
  game: string | null;
  /** The stored summary JSON text. */
  summary: string;
}

export interface SearchResult {
  hits: SearchHit[];
  /** Matches counted, at most MAX_COUNTED. */
  total: number;
  /** True when there are more than MAX_COUNTED matches. */
  capped: boolean;
}

export interface SearchIndex {
  /** The asOf the compiler recorded (an instant or a date), or null. */
  readonly asOf: string | null;
  search(plan: SearchPlan, page: number, limit: number): SearchResult;
  close(): void;
}

interface EntryRow {
  kind: string;
  id: string;
  game: string | null;
  summary: string;
}

export function openSearchIndex(path: string): SearchIndex {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  let statements: ReturnType<typeof prepare>;
  try {
    statements = prepare(db);
  } catch (err) {
    db.close();
    throw err;
  }
  const { asOfRow, tierRanks, exactRanks, exactScopedRanks, entryAt } = statements;

  return {
    asOf: asOfRow ?? null,

    search(plan, page, limit) {
      if (plan.exactKey === null || plan.all === null) return { hits: [], total: 0, capped: false };
      // The widest tier, read up to one past the cap, is both the count and that tier's rows: every
      // other tier's matches are a subset of it, so no separate count query is needed.
      const widest = tierRanks.all(plan.all, MAX_COUNTED + 1) as number[];
      const start = (page - 1) * limit;
      const end = Math.min(start + limit, MAX_COUNTED);
      const order: number[] = [];
      const tierOf = new Map<number, MatchTier>();
      const take = (ranks: number[], tier: MatchTier) => {
        for (const rank of ranks) {
          if (order.length >= end) return;
          if (tierOf.has(rank)) continue;
          tierOf.set(rank, tier);
          order.push(rank);
        }
      };

      if (start < end) {
        const exact = (plan.scope === null
          ? exactRanks.all(plan.exactKey, end)
          : exactScopedRanks.all(plan.exactKey, plan.scope, end)) as number[];
        take(exact, 'exact');
        for (const t of plan.tiers) {
          if (order.length >= end) break;
          take(t.match === plan.all ? widest : (tierRanks.all(t.match, end) as number[]), t.tier);
        }
      }

      const capped = widest.length > MAX_COUNTED;
      const total = capped ? MAX_COUNTED : Math.max(widest.length, order.length);
      const hits = order.slice(start, end).map((rank): SearchHit => {
        const row = entryAt.get(rank) as EntryRow;
        return { tier: tierOf.get(rank) as MatchTier, kind: row.kind, id: row.id, game: row.game, summary: row.summary };
      });
      return { hits, total, capped };
    },

    close() {
      db.close();
    },
  };
}

function prepare(db: Database.Database) {
  const version = db.pragma('user_version', { simple: true });
  if (version !== SEARCH_SCHEMA_VERSION) {
    throw new CatalogError('unavailable', `the snapshot's search index has schema version ${String(version)}; this proxy reads version ${SEARCH_SCHEMA_VERSION}`);
  }
  // Reads map the file instead of copying pages through SQLite's cache; the file is immutable.
  db.pragma('mmap_size = 1073741824');
  return {
    asOfRow: db.prepare('SELECT value FROM search_meta WHERE key = ?').pluck().get(SEARCH_META_AS_OF) as string | null | undefined,
    tierRanks: db.prepare('SELECT rowid FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid LIMIT ?').pluck(),
    exactRanks: db.prepare('SELECT rank FROM search_entries WHERE name_key = ? ORDER BY rank LIMIT ?').pluck(),
    exactScopedRanks: db.prepare('SELECT rank FROM search_entries WHERE name_key = ? AND scope = ? ORDER BY rank LIMIT ?').pluck(),
    entryAt: db.prepare('SELECT kind, id, game, summary FROM search_entries WHERE rank = ?'),
  };
}
