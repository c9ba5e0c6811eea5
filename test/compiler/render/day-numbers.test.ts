import { describe, expect, it } from 'vitest';
import { bucketOf, bucketSpan, dayNumber, dayString, dayTimestamp } from '../../../compiler/render/day-numbers.js';
import { CatalogError } from '../../../snapshots/errors.js';

describe('day numbers', () => {
  it('agree with Date.UTC for every day from 1899 to 2101', () => {
    const from = Date.UTC(1899, 0, 1) / 86_400_000;
    const to = Date.UTC(2101, 11, 31) / 86_400_000;
    const mismatches: string[] = [];
    for (let day = from; day <= to; day++) {
      const iso = new Date(day * 86_400_000).toISOString().slice(0, 10);
      if (dayString(day) !== iso || dayNumber(iso) !== day) mismatches.push(`${day} ${iso}`);
    }
    expect(to - from).toBeGreaterThan(70_000);
    expect(mismatches).toEqual([]);
  });

  it('format timestamps at midnight UTC with milliseconds', () => {
    expect(dayTimestamp(dayNumber('2024-02-29'))).toBe('2024-02-29T00:00:00.000Z');
  });

  it('when the date is not YYYY-MM-DD then invalid_source', () => {
    for (const bad of ['2024-2-29', '2024-13-01', 'yesterday', '2024-02-29T00:00:00Z']) {
      expect(() => dayNumber(bad)).toThrow(CatalogError);
    }
  });
});

describe('calendar buckets', () => {
  const d = dayNumber;
  it('weeks run Monday to Sunday (ISO)', () => {
    // 2024-01-03 is a Wednesday; its week is Monday 2024-01-01 .. Sunday 2024-01-07.
    expect(bucketOf(d('2024-01-03'), 'week')).toEqual({ start: d('2024-01-01'), end: d('2024-01-08') });
    expect(bucketOf(d('2024-01-07'), 'week')).toEqual({ start: d('2024-01-01'), end: d('2024-01-08') });
    expect(bucketOf(d('2024-01-08'), 'week')).toEqual({ start: d('2024-01-08'), end: d('2024-01-15') });
  });

  it('months, quarters and years are calendar units', () => {
    expect(bucketOf(d('2024-02-29'), 'month')).toEqual({ start: d('2024-02-01'), end: d('2024-03-01') });
    expect(bucketOf(d('2024-12-31'), 'month')).toEqual({ start: d('2024-12-01'), end: d('2025-01-01') });
    expect(bucketOf(d('2024-05-10'), 'quarter')).toEqual({ start: d('2024-04-01'), end: d('2024-07-01') });
    expect(bucketOf(d('2024-11-10'), 'quarter')).toEqual({ start: d('2024-10-01'), end: d('2025-01-01') });
    expect(bucketOf(d('2024-05-10'), 'year')).toEqual({ start: d('2024-01-01'), end: d('2025-01-01') });
  });

  it('count the buckets a span of days touches', () => {
    expect(bucketSpan(d('2024-01-03'), d('2024-01-03'), 'day')).toBe(1);
    expect(bucketSpan(d('2024-01-03'), d('2024-04-11'), 'day')).toBe(100);
    expect(bucketSpan(d('2024-01-03'), d('2024-04-11'), 'week')).toBe(15);
    expect(bucketSpan(d('2024-01-31'), d('2024-02-01'), 'month')).toBe(2);
    expect(bucketSpan(d('2023-12-31'), d('2024-04-01'), 'quarter')).toBe(3);
    expect(bucketSpan(d('2014-06-01'), d('2024-06-01'), 'year')).toBe(11);
  });
});
