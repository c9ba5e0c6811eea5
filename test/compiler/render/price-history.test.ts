import { describe, expect, it } from 'vitest';
import { dayNumber, dayString } from '../../../snapshots/dates.js';
import {
  dailyPrices, downsample, historyBlock, priceWindow, resolutionFor, roundTo, windowAggregates, type DailyPrices,
} from '../../../compiler/render/price-history.js';
import { series } from './entity-fixtures.js';

const ts = (date: string) => `${date}T00:00:00.000Z`;

function daily(start: string, usdCents: (number | null)[]): DailyPrices {
  const parsed = dailyPrices(series('card', 'c', start, usdCents));
  if (parsed === null) throw new Error('fixture has no price');
  return parsed;
}

/** 100 days from Wednesday 2024-01-03 to Thursday 2024-04-11, price 100 + i on day i, with gaps. */
function hundredDays(): DailyPrices {
  const values: (number | null)[] = Array.from({ length: 100 }, (_, i) => 100 + i);
  values[11] = null; // Sunday 2024-01-14: that week ends on Saturday's price
  for (let i = 12; i <= 18; i++) values[i] = null; // the whole week of 2024-01-15: no point
  return daily('2024-01-03', values);
}

describe('downsampling', () => {
  it('a 100-day series gives one point per ISO week: the last price, stamped with its day', () => {
    const prices = hundredDays();
    const points = downsample(prices, priceWindow(prices, null), 'week');
    expect(points).toEqual([
      [ts('2024-01-07'), 104], // partial first week (Wed..Sun)
      [ts('2024-01-13'), 110], // Sunday missing: Saturday's price
      [ts('2024-01-28'), 125], // week of 01-15 had no price at all: skipped
      [ts('2024-02-04'), 132],
      [ts('2024-02-11'), 139],
      [ts('2024-02-18'), 146],
      [ts('2024-02-25'), 153],
      [ts('2024-03-03'), 160],
      [ts('2024-03-10'), 167],
      [ts('2024-03-17'), 174],
      [ts('2024-03-24'), 181],
      [ts('2024-03-31'), 188],
      [ts('2024-04-07'), 195],
      [ts('2024-04-11'), 199], // partial last week ends on the last price
    ]);
  });

  it('monthly buckets are calendar months', () => {
    const prices = hundredDays();
    expect(downsample(prices, priceWindow(prices, null), 'month')).toEqual([
      [ts('2024-01-31'), 128],
      [ts('2024-02-29'), 157],
      [ts('2024-03-31'), 188],
      [ts('2024-04-11'), 199],
    ]);
  });

  it('a new day changes only the newest bucket', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 + i);
    const before = daily('2024-01-03', values);
    const after = daily('2024-01-03', [...values, 500]);
    const a = downsample(before, priceWindow(before, null), 'week');
    const b = downsample(after, priceWindow(after, null), 'week');
    expect(b.slice(0, -1)).toEqual(a.slice(0, -1));
    expect(b[b.length - 1]).toEqual([ts('2024-04-12'), 500]);
  });

  it('daily resolution keeps every priced day of the window', () => {
    const prices = daily('2026-03-01', [200, null, 150, 300, 250]);
    expect(downsample(prices, priceWindow(prices, 30), 'day')).toEqual([
      [ts('2026-03-01'), 200], [ts('2026-03-03'), 150], [ts('2026-03-04'), 300], [ts('2026-03-05'), 250],
    ]);
  });

  it('widens the bucket when the window would hold more than the point budget', () => {
    const prices = daily('2014-01-01', new Array(3652).fill(100)); // 2014-01-01..2023-12-31: 120 months
    const all = priceWindow(prices, null);
    expect(resolutionFor(all, 'month')).toBe('quarter');
    expect(resolutionFor(all, 'day', 5000)).toBe('day');
    expect(resolutionFor(all, 'day', 60)).toBe('quarter');
    expect(resolutionFor(all, 'day', 10)).toBe('year');
    const block = historyBlock(prices, 'all');
    expect(block.resolution).toBe('quarter');
    expect(block.points).toHaveLength(40);
    expect(block.points[0]).toEqual([ts('2014-03-31'), 100]);
  });
});

describe('windows', () => {
  it('the 30d window is the 30 days ending at the last price, trailing empty days ignored', () => {
    const prices = daily('2024-01-03', [...Array.from({ length: 100 }, (_, i) => 100 + i), null, null]);
    const block = historyBlock(prices, '30d');
    expect(block.from).toBe(ts('2024-03-13'));
    expect(block.to).toBe(ts('2024-04-11'));
    expect(block.resolution).toBe('day');
    expect(block.points).toHaveLength(30);
    expect(block.points[0]).toEqual([ts('2024-03-13'), 170]);
    // 170..199: min, max, mean 184.5 rounded, change 29, 29/170 = 17.0588 %
    expect(block.aggregates).toEqual({ minCents: 170, maxCents: 199, avgCents: 185, changeCents: 29, changePct: 17.06 });
  });

  it('a window longer than the series starts before it; `all` starts at the first price', () => {
    const prices = daily('2026-03-01', [null, 100, 110]);
    expect(historyBlock(prices, '3mo').from).toBe(ts(dayString(dayNumber('2026-03-03') - 90)));
    expect(historyBlock(prices, 'all').from).toBe(ts('2026-03-02'));
    expect(historyBlock(prices, 'all').to).toBe(ts('2026-03-03'));
  });

  it('each range has its base resolution', () => {
    const prices = daily('2024-01-01', new Array(900).fill(100));
    expect(['30d', '3mo', '6mo', '12mo', 'all'].map((r) => historyBlock(prices, r as '30d').resolution))
      .toEqual(['day', 'day', 'week', 'week', 'month']);
  });

  it('without prices the block is empty, with every key', () => {
    expect(historyBlock(null, '6mo')).toEqual({
      name: '6mo', from: null, to: null, resolution: 'week', points: [],
      aggregates: { minCents: null, maxCents: null, avgCents: null, changeCents: null, changePct: null },
    });
  });
});

describe('aggregates', () => {
  const agg = (values: (number | null)[]) => {
    const prices = daily('2026-03-01', values);
    return windowAggregates(prices, priceWindow(prices, 30));
  };

  it('min, max, avg, change and changePct over the daily non-null prices', () => {
    // (200 + 150 + 300 + 250) / 4 = 225; 250 - 200 = 50; 50 / 200 = 25 %
    expect(agg([200, null, 150, 300, 250])).toEqual({ minCents: 150, maxCents: 300, avgCents: 225, changeCents: 50, changePct: 25 });
  });

  it('a fall gives a negative change, rounded to 2 decimals', () => {
    // (300 + 100 + 200) / 3 = 200; -100 / 300 = -33.333 %
    expect(agg([300, 100, 200])).toEqual({ minCents: 100, maxCents: 300, avgCents: 200, changeCents: -100, changePct: -33.33 });
  });

  it('avg rounds to whole cents', () => {
    expect(agg([1, 2]).avgCents).toBe(2);
    expect(agg([1, 1, 2]).avgCents).toBe(1);
  });

  it('changePct is null when the first price is 0', () => {
    expect(agg([0, 10])).toMatchObject({ changeCents: 10, changePct: null });
  });

  it('one price: change 0', () => {
    expect(agg([777])).toEqual({ minCents: 777, maxCents: 777, avgCents: 777, changeCents: 0, changePct: 0 });
  });

  it('only the window counts', () => {
    const values = [1000, ...new Array(40).fill(null), 10, 20];
    expect(agg(values)).toEqual({ minCents: 10, maxCents: 20, avgCents: 15, changeCents: 10, changePct: 100 });
  });
});

describe('roundTo', () => {
  it('rounds half away from zero and never gives -0', () => {
    expect(roundTo(0.123456, 4)).toBe(0.1235);
    expect(roundTo(-0.123456, 4)).toBe(-0.1235);
    expect(roundTo(2.5, 0)).toBe(3);
    expect(roundTo(-2.5, 0)).toBe(-3);
    expect(Object.is(roundTo(-0.00001, 2), 0)).toBe(true);
  });
});
