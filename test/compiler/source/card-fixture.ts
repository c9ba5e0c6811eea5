import type { CardRecord } from '../../../snapshots/records.js';

/** A card of the source format, `over` replacing any of its fields (the card table's and card slices' tests). */
export const card = (over: Partial<CardRecord> & { id: string }): CardRecord => ({
  game: 'mtg', setCode: 'lea', name: 'Lightning Bolt', number: '161', rarity: 'common', artist: 'Christopher Rush',
  oracleId: 'o-bolt', imageUrl: 'https://img.example/lea/161.jpg', releasedAt: '1993-08-05', addedAt: '2024-01-02', watchers: 3, ...over,
});
