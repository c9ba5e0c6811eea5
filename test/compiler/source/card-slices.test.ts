import { describe, expect, it } from 'vitest';
import { createCardSlicer, decodeCardSlice, encodeCardSlice } from '../../../compiler/source/card-slices.js';
import { cardTableOf, createCardTableBuilder } from '../../../compiler/source/card-table.js';
import type { CardRecord } from '../../../snapshots/records.js';
import { stableJson } from '../../../snapshots/codec.js';
import { card } from './card-fixture.js';


const records: CardRecord[] = [
  card({ id: 'mtg-lea-161' }),
  card({ id: 'mtg-lea-162', name: 'Æther Flash — “quoted”', artist: 'Chloé Lemaire', oracleId: null, imageUrl: null, rarity: null, releasedAt: null }),
  card({ id: 'mtg-lea-164', imageUrl: '', name: '' }),
  { ...card({ id: 'pkm-base1-4', game: 'pokemon', setCode: 'base1', name: 'Charizard', number: '4', watchers: 9007199254740991 }), printedName: 'Glurak' } as CardRecord,
  card({ id: 'pkm-base1-5', game: 'pokemon', setCode: 'base1', artist: 'Mitsuhiro Arita', number: '5', watchers: 0 }),
];

/** The slices of `cards` in runs of `run`, each written and read back as bytes, into a table. */
function roundTrip(cards: readonly CardRecord[], run: number, shift = 0) {
  const slicer = createCardSlicer();
  const builder = createCardTableBuilder(1);
  for (let at = 0; at < cards.length; at += run) {
    const bytes = encodeCardSlice(slicer.slice(cards.slice(at, at + run)));
    // A frame read back from a file is a view at any offset of its buffer.
    const moved = new Uint8Array(bytes.length + shift);
    moved.set(bytes, shift);
    const slice = decodeCardSlice(moved.subarray(shift));
    expect(slice).not.toBeNull();
    expect(builder.addSlice(slice!)).toBe(true);
  }
  return builder.finish();
}

describe('card slices', () => {
  it('give back every record, its stable JSON and its order, whatever the run and the offset of the bytes', () => {
    for (const [run, shift] of [[1, 0], [2, 3], [3, 8], [100, 1]]) {
      const table = roundTrip(records, run, shift);
      expect([...table.values()]).toEqual(records);
      expect([...table.values()].map((r) => stableJson(r))).toEqual(records.map((r) => stableJson(r)));
      expect(table.get('mtg-lea-162')!.imageUrl).toBeNull();
      expect(table.get('mtg-lea-164')!.imageUrl).toBe('');
      expect(table.indexOf('pkm-base1-5')).toBe(4);
      expect(table.artist(1)).toBe('Chloé Lemaire');
    }
  });

  it('carry each string once: a later slice has only the strings it is first to use', () => {
    const slicer = createCardSlicer();
    const first = slicer.slice(records.slice(0, 2));
    const second = slicer.slice([card({ id: 'mtg-lea-170' })]);
    expect(first.strings).toContain('lea');
    expect(second.strings).toEqual([]);
  });

  it('make the same table as the records added one by one, at the scale of many slices', () => {
    const many = Array.from({ length: 2_500 }, (_, i) => card({ id: `mtg-s${i % 7}-${i}`, setCode: `s${i % 7}`, number: String(i % 300), artist: i % 3 === 0 ? null : `Artist ${i % 50}`, watchers: i }));
    const sliced = roundTrip(many, 1_000);
    const direct = cardTableOf(many);
    for (let i = 0; i < many.length; i += 97) expect(sliced.record(i)).toEqual(direct.record(i));
    expect(sliced.size).toBe(direct.size);
  });

  it('are refused, nothing appended, when their bytes or values do not fit', () => {
    const bytes = encodeCardSlice(createCardSlicer().slice(records));
    expect(decodeCardSlice(bytes.subarray(0, bytes.length - 1))).toBeNull();
    expect(decodeCardSlice(new Uint8Array(8))).toBeNull();

    const badCode = decodeCardSlice(Buffer.from(bytes))!;
    badCode.codes.setCode[1] = 999;
    const builder = createCardTableBuilder();
    expect(builder.addSlice(badCode)).toBe(false);
    const backwards = decodeCardSlice(Buffer.from(bytes))!;
    backwards.text.name.ends[0] = backwards.text.name.ends[1] + 1;
    expect(builder.addSlice(backwards)).toBe(false);
    const flag = decodeCardSlice(Buffer.from(bytes))!;
    flag.nullImage[0] = 2;
    expect(builder.addSlice(flag)).toBe(false);
    expect(builder.finish().size).toBe(0);
  });

  it('never mix with records in one builder', () => {
    const builder = createCardTableBuilder();
    builder.add(records[0]);
    expect(() => builder.addSlice(createCardSlicer().slice(records.slice(1)))).toThrow(/both records and slices/);
  });
});
