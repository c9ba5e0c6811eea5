/**
 * Fills the snapshot's search index: every card, figure and set, each with the same summary item the
 * lists use (so a search hit and a set page show the same shape) and its popularity signal. The
 * entries go to a builder on its own thread; the caller awaits `finish()` after other work.
 *
 * An incremental compile in which only prices changed updates a copy of the previous index instead
 * (search-update.ts): a price is only in an entry's summary, never in its rank or its indexed text.
 */
import type { LoadedCatalog } from '../source/index.js';
import { createBackgroundSearchIndexBuilder } from '../search/background-builder.js';
import type { SearchEntry } from '../search/entry.js';
import { setMapKey } from '../render/summaries.js';
import { toTimestampOrNull } from '../../snapshots/envelope.js';
import type { PriceSummaries } from './index.js';
import type { ProgressSink } from './progress.js';
import type { ThreadMode } from '../threads/thread.js';
import { updateSearchIndexCopy, type PreviousSearchIndex } from './search-update.js';
import { cardEntry, figureEntry } from './search-entries.js';

/**
 * The search index being built. Entries are made on the calling thread only as fast as the search
 * thread takes them: `pump()` between the aggregate documents, the rest in `finish()`.
 */
export interface SnapshotSearchIndex {
  /** Queues entries while the search thread has room; never waits. */
  pump(): void;
  /**
   * Queues the remaining entries (waiting for room), then completes the file on the search thread;
   * resolves with the number of entries indexed (0 when a copy of the previous index was updated).
   * The compile starts it before the main thread's last work of its own (the object index) and
   * awaits it after, so the ranking, the FTS load and the final write run beside that work.
   */
  finish(): Promise<number>;
  abort(): Promise<void>;
}

export async function startSnapshotSearchIndex(
  path: string,
  catalog: LoadedCatalog,
  prices: PriceSummaries,
  progress: ProgressSink,
  mode: ThreadMode,
  previous: PreviousSearchIndex | null = null,
): Promise<SnapshotSearchIndex> {
  const updated = previous ? await updateSearchIndexCopy(path, previous, catalog, prices) : null;
  if (updated) {
    progress.note(`search index: ${updated.updated} entries updated in a copy of the previous index`);
    return { pump: () => undefined, finish: async () => (await updated.finish(), 0), abort: updated.abort };
  }
  const builder = createBackgroundSearchIndexBuilder(path, { asOf: catalog.meta.asOf }, mode);
  const entries = searchEntries(catalog, prices);
  let left = true;
  let added = 0;
  // A failure while pumping (the builder's, or a bad entry) is kept for finish(): the aggregates
  // that call pump() are not the place to stop the compile.
  let failure: unknown = null;
  /** Adds entries while `more()` says so. */
  const add = (more: () => boolean) => {
    try {
      while (left && more()) {
        const next = entries.next();
        if (next.done) left = false;
        else {
          builder.add(next.value);
          added++;
        }
      }
    } catch (err) {
      left = false;
      failure ??= err;
    }
  };
  const pump = () => add(builder.room);
  pump();
  return {
    pump,
    async finish() {
      while (left) {
        await builder.ready();
        // A batch's worth at a time, then wait for room again.
        let n = 0;
        add(() => n++ < 2_000);
      }
      if (failure !== null) {
        await builder.abort();
        throw failure;
      }
      await builder.finish();
      return added;
    },
    abort: () => builder.abort(),
  };
}

/** Every card, figure and set entry, in that order (a set's card count and watchers need its cards first). */
function* searchEntries(catalog: LoadedCatalog, prices: PriceSummaries): Generator<SearchEntry> {
  const setStats = new Map<string, { cards: number; watchers: number }>();
  for (const card of catalog.cards.values()) {
    const sk = setMapKey(card.game, card.setCode);
    const st = setStats.get(sk) ?? { cards: 0, watchers: 0 };
    st.cards++;
    st.watchers += card.watchers;
    setStats.set(sk, st);
    yield cardEntry(catalog, prices, card);
  }
  for (const figure of catalog.figures.values()) yield figureEntry(catalog, prices, figure);
  for (const set of catalog.sets) {
    const st = setStats.get(setMapKey(set.game, set.code)) ?? { cards: 0, watchers: 0 };
    yield {
      kind: 'set',
      id: `${set.game}-${set.code}`,
      game: set.game,
      name: set.name,
      setName: set.series,
      artist: null,
      number: set.code,
      popularity: st.watchers,
      summary: { entity: 'set', game: set.game, code: set.code, name: set.name, series: set.series, releasedAt: toTimestampOrNull(set.releasedAt), cardCount: st.cards },
    };
  }
}
