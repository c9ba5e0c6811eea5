import { describe, expect, it } from 'vitest';
import { convertCents, createFxLookup } from '../../../compiler/render/fx.js';
import type { FxRateRecord } from '../../../snapshots/records.js';

const rate = (date: string, currency: FxRateRecord['currency'], perUsd: number, source = 'ecb'): FxRateRecord => ({ date, currency, perUsd, source });

describe('createFxLookup', () => {
  // Thursday 2026-11-19, Friday 2026-11-20, then Monday 2026-11-23: no rates on the weekend.
  const fx = createFxLookup([
    rate('2026-11-23', 'EUR', 0.93),
    rate('2026-11-19', 'EUR', 0.91),
    rate('2026-11-20', 'EUR', 0.92),
    rate('2026-11-20', 'GBP', 0.79),
  ]);

  it('uses the rate of the price day when there is one', () => {
    expect(fx.quoteOn('2026-11-20', 'EUR')).toEqual({ currency: 'EUR', rate: 0.92, date: '2026-11-20', source: 'ecb' });
    expect(fx.quoteOn('2026-11-23', 'EUR')?.rate).toBe(0.93);
  });

  it('over a weekend gap uses the latest rate before the day (Friday)', () => {
    expect(fx.quoteOn('2026-11-21', 'EUR')).toMatchObject({ rate: 0.92, date: '2026-11-20' });
    expect(fx.quoteOn('2026-11-22', 'EUR')).toMatchObject({ rate: 0.92, date: '2026-11-20' });
    expect(fx.quoteOn('2027-01-01', 'EUR')).toMatchObject({ rate: 0.93, date: '2026-11-23' });
  });

  it('before the first rate, or for a currency without rates, there is no quote', () => {
    expect(fx.quoteOn('2026-11-18', 'EUR')).toBeNull();
    expect(fx.quoteOn('2026-11-19', 'GBP')).toBeNull();
    expect(fx.quoteOn('2026-11-20', 'CAD')).toBeNull();
    expect(createFxLookup([]).quoteOn('2026-11-20', 'AUD')).toBeNull();
  });

  it('when a day has two rates for a currency then the later line wins', () => {
    const twice = createFxLookup([rate('2026-11-20', 'EUR', 0.5, 'first'), rate('2026-11-20', 'EUR', 0.92, 'correction')]);
    expect(twice.quoteOn('2026-11-20', 'EUR')).toMatchObject({ rate: 0.92, source: 'correction' });
  });

  it('finds the right rate among many (binary search agrees with a linear scan)', () => {
    const rows: FxRateRecord[] = [];
    for (let m = 1; m <= 12; m++) for (const d of [3, 9, 17, 28]) rows.push(rate(`2025-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`, 'CAD', m * 100 + d));
    const lookup = createFxLookup([...rows].reverse());
    for (let m = 1; m <= 12; m++) {
      for (let d = 1; d <= 28; d++) {
        const date = `2025-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
        const expected = rows.filter((r) => r.date <= date).at(-1) ?? null;
        expect(lookup.quoteOn(date, 'CAD')?.date ?? null).toBe(expected?.date ?? null);
      }
    }
  });
});

describe('convertCents', () => {
  it('rounds to whole cents of the target currency', () => {
    const quote = { currency: 'EUR' as const, rate: 0.92, date: '2026-11-20', source: 'ecb' };
    expect(convertCents(1234, quote)).toBe(1135); // 1135.28
    expect(convertCents(1000, { ...quote, rate: 0.9255 })).toBe(926); // 925.5
    expect(convertCents(1234, null)).toBeNull();
  });
});
