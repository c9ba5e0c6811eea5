/**
 * Fills the snapshot's search index: every card, figure and set, each with the same summary item the
 * lists use (so a search hit and a set page show the same shape) and its popularity signal. The
 * entries go to a builder on its own thread; the caller awaits `finish()` after other work.
 *
 * An incremental compile in which only prices changed updates a copy of the previous index instead
 * (search-update.ts): a price is only in an entry's summary, never in its rank or its indexed text.
 */
import type { LoadedCatalog } from '../source/index.js';
import { createBackgroundSearchIndexBuilder, type BackgroundSearchIndexBuilder } from '../search/background-builder.js';
import { setMapKey } from '../render/summaries.js';
import { toTimestampOrNull } from '../../snapshots/envelope.js';
import type { PriceSummaries } from './index.js';
import type { ProgressSink } from './progress.js';
import type { ThreadMode } from '../threads/thread.js';
import { updateSearchIndexCopy, type PreviousSearchIndex } from './search-update.js';
import { cardEntry, figureEntry } from './search-entries.js';

export async function startSnapshotSearchIndex(
  path: string,
  catalog: LoadedCatalog,
  prices: PriceSummaries,
  progress: ProgressSink,
  mode: ThreadMode,
  previous: PreviousSearchIndex | null = null,
): Promise<Pick<BackgroundSearchIndexBuilder, 'finish' | 'abort'>> {
  const updated = previous ? updateSearchIndexCopy(path, previous, catalog, prices) : null;
  if (updated) {
    progress.note(`search index: ${updated.updated} entries updated in a copy of the previous index`);
    return updated;
  }
  const builder = createBackgroundSearchIndexBuilder(path, { asOf: catalog.meta.asOf }, mode);
  let count = 0;
  try {
    const setStats = new Map<string, { cards: number; watchers: number }>();
    for (const card of catalog.cards.values()) {
      const sk = setMapKey(card.game, card.setCode);
      const st = setStats.get(sk) ?? { cards: 0, watchers: 0 };
      st.cards++;
      st.watchers += card.watchers;
      setStats.set(sk, st);
      builder.add(cardEntry(catalog, prices, card));
      if (++count % 1000 === 0) progress.advance(1000);
    }
    for (const figure of catalog.figures.values()) builder.add(figureEntry(catalog, prices, figure));
    for (const set of catalog.sets) {
      const st = setStats.get(setMapKey(set.game, set.code)) ?? { cards: 0, watchers: 0 };
      builder.add({
        kind: 'set',
        id: `${set.game}-${set.code}`,
        game: set.game,
        name: set.name,
        setName: set.series,
        artist: null,
        number: set.code,
        popularity: st.watchers,
        summary: { entity: 'set', game: set.game, code: set.code, name: set.name, series: set.series, releasedAt: toTimestampOrNull(set.releasedAt), cardCount: st.cards },
      });
    }
    // The loop above reports whole thousands of cards; the rest (and figures and sets) here, so the
    // phase's count is the number of entries indexed.
    progress.advance(catalog.cards.size + catalog.figures.size + catalog.sets.length - Math.floor(catalog.cards.size / 1000) * 1000);
  } catch (err) {
    await builder.abort();
    throw err;
  }
  return builder;
}
