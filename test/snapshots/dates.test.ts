import { describe, expect, it } from 'vitest';
import { addDays, dayNumber, dayString, dayTimestamp, formatInstant, isDate, isInstant, MS_PER_DAY, yearOf } from '../../snapshots/dates.js';
import { CatalogError } from '../../snapshots/errors.js';

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

  it('write four-digit years as toISOString does, also before the year 1000', () => {
    for (const date of ['0100-01-01', '0999-12-31', '1000-01-01', '9999-12-31']) {
      expect(dayString(dayNumber(date))).toBe(date);
      expect(dayString(dayNumber(date))).toBe(new Date(`${date}T00:00:00.000Z`).toISOString().slice(0, 10));
    }
  });

  it('format timestamps at midnight UTC with milliseconds', () => {
    expect(dayTimestamp(dayNumber('2024-02-29'))).toBe('2024-02-29T00:00:00.000Z');
    expect(formatInstant(dayNumber('2024-02-29') * MS_PER_DAY + 1)).toBe('2024-02-29T00:00:00.001Z');
  });

  it('when the date is not YYYY-MM-DD then invalid_source', () => {
    for (const bad of ['2024-2-29', '2024-13-01', 'yesterday', '2024-02-29T00:00:00Z']) {
      expect(() => dayNumber(bad)).toThrow(CatalogError);
    }
  });

  it('step across months, leap days and years', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2023-02-28', 1)).toBe('2023-03-01');
    expect(addDays('2024-01-01', -1)).toBe('2023-12-31');
    expect(addDays('2024-05-01', 0)).toBe('2024-05-01');
    expect(yearOf(dayNumber('2024-12-31'))).toBe(2024);
    expect(yearOf(dayNumber('2025-01-01'))).toBe(2025);
  });
});

describe('date checks', () => {
  it('a date is a calendar day that exists', () => {
    expect(isDate('2024-02-29')).toBe(true);
    expect(isDate('2000-02-29')).toBe(true);
    for (const bad of ['2023-02-29', '1900-02-29', '2024-04-31', '2024-13-01', '2024-2-29', '2024-02-29T00:00:00.000Z', '']) {
      expect(isDate(bad)).toBe(false);
    }
  });

  it('an instant is the API timestamp shape, of a day that exists', () => {
    expect(isInstant('2024-05-01T10:00:00.000Z')).toBe(true);
    for (const bad of ['2024-05-01T10:00:00Z', '2024-05-01T24:00:00.000Z', '2023-02-29T10:00:00.000Z', '2024-05-01']) {
      expect(isInstant(bad)).toBe(false);
    }
  });
});
