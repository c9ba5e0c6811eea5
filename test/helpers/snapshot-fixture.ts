/**
 * A small snapshot written straight through the store contract (createFsSnapshotWriter +
 * encodeDocument + envelope + switchCurrent), independent of the compiler, for route and e2e tests.
 *
 * Contents: 3 cards at every range, a figure, a figure series (3 figures), pull-stats, an oracle
 * concept, set mtg/lea with 250 items in 3 stored pages, an artist, trending (all: 130 items,
 * mtg: 5), recent (all: 40), the five discover feeds, the catalog summary, and the showcase of
 * user `alice` with her binders. Every document carries `data.label` (or items carry `label`)
 * so two snapshots built with different labels can be told apart.
 */
import { join } from 'node:path';
import { encodeDocument, sha256Hex } from '../../snapshots/codec.js';
import { envelope, pageInfo, type DocumentKind } from '../../snapshots/envelope.js';
import {
  DISCOVER_FEEDS, MANIFEST_FILE, STORED_PAGE_SIZE, cardKey, figureKey, listPageKey, oracleKey, pullStatsKey, showcaseKey,
  summaryKey, type ListFamily,
} from '../../snapshots/keys.js';
import { manifestLines, type ManifestEntry } from '../../snapshots/manifest.js';
import { RANGES } from '../../snapshots/records.js';
import { createFsSnapshotWriter } from '../../snapshots/store/fs.js';
import { switchCurrent } from '../../snapshots/store/pointer.js';

export const FIXTURE_AS_OF = '2026-11-20';
export const FIXTURE_CARD_IDS = ['mtg-lea-161', 'pokemon-base1-4', 'lorcana-tfc-1'] as const;
export const FIXTURE_FIGURE_ID = 'fig-pop-mart-1';
export const FIXTURE_SERIES_ID = 'series-pop-mart-a';
export const FIXTURE_ORACLE_ID = 'oracle-lightning-bolt';
export const FIXTURE_SET = { game: 'mtg', code: 'lea', items: 250 } as const;
export const FIXTURE_ARTIST = 'rebecca-guay';
export const FIXTURE_HANDLE = 'alice';
export const FIXTURE_TRENDING_ALL = 130;
export const FIXTURE_RECENT_ALL = 40;

/** The id of set item `i` (0-based): lets tests check a slice without reading the fixture. */
export const setItemId = (i: number) => `mtg-lea-${i + 1}`;
export const trendingItemId = (i: number) => `trend-${i + 1}`;

export interface FixtureSnapshot {
  root: string;
  id: string;
  /** Directory of the snapshot's objects. */
  dir: string;
  /** Every key written, with its sha256 (the manifest). */
  objects: Map<string, string>;
}

export interface FixtureOptions {
  /** Snapshot id (must match the snapshot id pattern); one is derived from `label` when absent. */
  id?: string;
  /** Written into every document, to tell snapshots apart. */
  label?: string;
  /** Switch `current` to this snapshot once written (default true). */
  publish?: boolean;
}

export async function writeFixtureSnapshot(root: string, options: FixtureOptions = {}): Promise<FixtureSnapshot> {
  const label = options.label ?? 'a';
  const id = options.id ?? `20261120T020000Z-${sha256Hex(label).slice(0, 8)}`;
  const writer = createFsSnapshotWriter(root, id);
  const objects = new Map<string, string>();
  const sizes = new Map<string, number>();
  const put = async (key: string, kind: DocumentKind, data: unknown, page = null as ReturnType<typeof pageInfo> | null) => {
    const bytes = encodeDocument(envelope(kind, FIXTURE_AS_OF, data, page));
    await writer.put(key, bytes);
    objects.set(key, sha256Hex(bytes));
    sizes.set(key, bytes.length);
  };
  const putList = async (family: ListFamily, kind: DocumentKind, items: unknown[]) => {
    const pages = Math.max(1, Math.ceil(items.length / STORED_PAGE_SIZE));
    for (let n = 1; n <= pages; n++) {
      const slice = items.slice((n - 1) * STORED_PAGE_SIZE, n * STORED_PAGE_SIZE);
      await put(listPageKey(family, n), kind, slice, pageInfo(n, STORED_PAGE_SIZE, items.length));
    }
  };

  for (const cardId of FIXTURE_CARD_IDS) {
    for (const range of RANGES) {
      await put(cardKey(cardId, range), 'card', {
        id: cardId, label, range, name: `Card ${cardId}`,
        prices: Array.from({ length: 30 }, (_, i) => ({ date: `2026-10-${String((i % 28) + 1).padStart(2, '0')}T00:00:00.000Z`, marketCents: 100 + i })),
      });
    }
  }
  await put(figureKey(FIXTURE_FIGURE_ID), 'figure', { id: FIXTURE_FIGURE_ID, label, seriesId: FIXTURE_SERIES_ID, name: 'Figure One' });
  await putList({ kind: 'series', id: FIXTURE_SERIES_ID }, 'series',
    [1, 2, 3].map((i) => ({ id: `fig-pop-mart-${i}`, label, name: `Figure ${i}` })));
  await put(pullStatsKey(FIXTURE_SERIES_ID), 'pullStats', { seriesId: FIXTURE_SERIES_ID, label, boxes: 120, figures: [] });
  await put(oracleKey(FIXTURE_ORACLE_ID), 'oracle', { id: FIXTURE_ORACLE_ID, label, name: 'Lightning Bolt', printings: ['mtg-lea-161'] });
  await putList({ kind: 'set', game: FIXTURE_SET.game, code: FIXTURE_SET.code }, 'set',
    Array.from({ length: FIXTURE_SET.items }, (_, i) => ({ id: setItemId(i), label, number: String(i + 1) })));
  await putList({ kind: 'artist', slug: FIXTURE_ARTIST }, 'artist',
    [0, 1, 2, 3, 4].map((i) => ({ id: setItemId(i), label })));
  await putList({ kind: 'trending', game: 'all' }, 'trending',
    Array.from({ length: FIXTURE_TRENDING_ALL }, (_, i) => ({ id: trendingItemId(i), label, velocity24h: 1 - i / 1000 })));
  await putList({ kind: 'trending', game: 'mtg' }, 'trending',
    Array.from({ length: 5 }, (_, i) => ({ id: trendingItemId(i), label })));
  await putList({ kind: 'recent', game: 'all' }, 'recent',
    Array.from({ length: FIXTURE_RECENT_ALL }, (_, i) => ({ id: `recent-${i + 1}`, label })));
  for (const feed of DISCOVER_FEEDS) {
    const kind = `discover${feed[0].toUpperCase()}${feed.slice(1)}` as DocumentKind;
    await putList({ kind: 'discover', feed }, kind, [{ id: `${feed}-1`, label }, { id: `${feed}-2`, label }]);
  }
  await put(summaryKey(), 'catalogSummary', { label, cards: FIXTURE_CARD_IDS.length, figures: 1 });
  await put(showcaseKey(FIXTURE_HANDLE), 'showcase', { handle: FIXTURE_HANDLE, label, displayName: 'Alice' });
  await putList({ kind: 'showcaseBinders', handle: FIXTURE_HANDLE }, 'showcaseBinders', [{ id: 'binder-1', label, name: 'Holos' }]);

  const entries: ManifestEntry[] = [...objects.keys()].sort().map((key) => ({ key, size: sizes.get(key)!, sha256: objects.get(key)!, input: null }));
  await writer.writeFile(MANIFEST_FILE, manifestLines({
    format: 'catalog-manifest', version: 1, snapshotId: id, asOf: `${FIXTURE_AS_OF}T00:00:00.000Z`, objects: entries.length,
    previous: null, counts: { new: entries.length, changed: 0, unchanged: 0, removed: 0 },
  }, entries));
  if (options.publish !== false) await switchCurrent(root, id);
  return { root, id, dir: join(root, id), objects };
}
