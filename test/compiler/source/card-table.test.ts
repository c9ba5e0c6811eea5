import { describe, expect, it } from 'vitest';
import { cardColumns, cardTableOf, CardTable } from '../../../compiler/source/card-table.js';
import type { CardRecord } from '../../../snapshots/records.js';
import { stableJson } from '../../../snapshots/codec.js';
import { card } from './card-fixture.js';


const records: CardRecord[] = [
  card({ id: 'mtg-lea-161' }),
  card({ id: 'mtg-lea-162', name: 'Æther Flash — “quoted”', artist: 'Chloé Lemaire', oracleId: null, imageUrl: null, rarity: null, releasedAt: null }),
  card({ id: 'pkm-base1-4', game: 'pokemon', setCode: 'base1', name: 'Charizard', number: '4', watchers: 9007199254740991 }),
  card({ id: 'mtg-lea-163', imageUrl: 'https://img.example/lea/163.jpg', watchers: 0 }),
];

describe('the card table', () => {
  it('gives back every record equal to the one added, with the same stable JSON, in the same order', () => {
    const table = cardTableOf(records);
    expect(table.size).toBe(4);
    expect([...table.values()]).toEqual(records);
    expect([...table.keys()]).toEqual(records.map((r) => r.id));
    expect([...table.entries()].map(([id, r]) => [id, r.name])).toEqual(records.map((r) => [r.id, r.name]));
    for (const r of records) {
      expect(table.get(r.id)).toEqual(r);
      expect(stableJson(table.get(r.id))).toBe(stableJson(r));
    }
  });

  it('keeps a null image apart from any URL, and fields beyond the source format', () => {
    const odd = { ...card({ id: 'x-1' }), printedName: 'Blitz', extra: { nested: [1, null] } } as CardRecord;
    const table = cardTableOf([odd, card({ id: 'x-2', imageUrl: null })]);
    expect(table.get('x-1')).toEqual(odd);
    expect(stableJson(table.get('x-1'))).toBe(stableJson(odd));
    expect(table.get('x-2')!.imageUrl).toBeNull();
  });

  it('finds ids by value, and nothing for an unknown, near or non-string id', () => {
    const table = cardTableOf(records);
    expect(table.indexOf('pkm-base1-4')).toBe(2);
    expect(table.has('mtg-lea-16')).toBe(false);
    expect(table.has('mtg-lea-1610')).toBe(false);
    expect(table.get('MTG-LEA-161')).toBeUndefined();
    expect(table.indexOf(undefined as unknown as string)).toBe(-1);
    expect(table.isId(1, 'mtg-lea-162')).toBe(true);
    expect(table.isId(1, 'mtg-lea-161')).toBe(false);
    expect(table.isId(9, 'mtg-lea-161')).toBe(false);
    const bytes = Buffer.from('..pkm-base1-4..', 'latin1');
    expect(table.isIdBytes(2, bytes, 2, 11)).toBe(true);
    expect(table.isIdBytes(2, bytes, 2, 10)).toBe(false);
    expect(table.isIdBytes(0, bytes, 2, 11)).toBe(false);
  });

  it('finds each of many ids where it was added (the hash table across growth and collisions)', () => {
    const many = Array.from({ length: 5000 }, (_, i) => card({ id: `c-${i}`, setCode: `s${i % 7}`, watchers: i }));
    const table = cardTableOf(many);
    for (let i = 0; i < many.length; i += 1) expect(table.indexOf(`c-${i}`)).toBe(i);
    expect(table.indexOf('c-5000')).toBe(-1);
    expect(table.setCode(4999)).toBe('s1');
    expect(table.watchers(4321)).toBe(4321);
  });

  it('refuses an id added twice', () => {
    expect(() => cardTableOf([card({ id: 'a' }), card({ id: 'a' })])).toThrow(/twice/);
  });

  it('reads the same columns from a table and from a map of the same records', () => {
    const table = cardTableOf(records);
    const map = new Map(records.map((r) => [r.id, r]));
    const fromMap = cardColumns(map);
    expect(cardColumns(table)).toBe(table);
    expect(cardColumns(map)).toBe(fromMap);
    expect(table).toBeInstanceOf(CardTable);
    for (let i = 0; i < records.length; i += 1) {
      for (const f of ['id', 'game', 'setCode', 'oracleId', 'artist', 'addedAt', 'watchers', 'record'] as const) {
        expect(table[f](i)).toEqual(fromMap[f](i));
      }
      expect(fromMap.indexOf(records[i].id)).toBe(i);
      expect(fromMap.isIdBytes(i, Buffer.from(records[i].id), 0, records[i].id.length)).toBe(true);
    }
    expect(fromMap.indexOf('nope')).toBe(-1);
  });
});
