import { describe, expect, it } from 'vitest';
import { bucketOf, bucketSpan } from '../../../compiler/render/day-buckets.js';
import { dayNumber } from '../../../snapshots/dates.js';

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
