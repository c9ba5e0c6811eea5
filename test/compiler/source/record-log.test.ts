/**
 * The record log (compiler/source/record-log.ts): records walked in push order, as often as asked,
 * equal to what was pushed, across deflated blocks and the open tail.
 */
import { describe, expect, it } from 'vitest';
import { createRecordLog } from '../../../compiler/source/record-log.js';

interface Rec {
  id: string;
  note: string | null;
  n: number;
  items: { entity: string; id: string }[];
}

const record = (i: number): Rec => ({
  id: `b${i}`,
  // Newlines, quotes and characters outside ASCII inside values must not split a line.
  note: i % 7 === 0 ? null : `line one\nline "two" ✓ ${'x'.repeat(i % 50)}`,
  n: i * 0.5,
  items: [{ entity: i % 2 === 0 ? 'card' : 'figure', id: `e${i}` }],
});

describe('record log', () => {
  it('when more records than one block are pushed then every walk yields them all, equal and in push order', () => {
    const log = createRecordLog<Rec>();
    const want = Array.from({ length: 12_000 }, (_, i) => record(i));
    for (const r of want) log.push(r);
    expect(log.length).toBe(want.length);
    expect([...log]).toEqual(want);
    // A second walk reads the same blocks again.
    expect([...log]).toEqual(want);
  });

  it('when records are longer than the piece a walk parses at once then they come back whole, with their neighbours', () => {
    const log = createRecordLog<Rec>();
    const want = Array.from({ length: 40 }, (_, i) => ({ ...record(i), note: i % 3 === 0 ? `${'é'.repeat(20_000)}\n${'z'.repeat(i * 1_000)}` : record(i).note }));
    for (const r of want) log.push(r);
    expect([...log]).toEqual(want);
  });

  it('when nothing is pushed then a walk yields nothing', () => {
    const log = createRecordLog<Rec>();
    expect(log.length).toBe(0);
    expect([...log]).toEqual([]);
  });

  it('when records are pushed during a walk then that walk does not see them and the next one does', () => {
    const log = createRecordLog<Rec>();
    for (let i = 0; i < 3; i++) log.push(record(i));
    const seen: string[] = [];
    for (const r of log) {
      seen.push(r.id);
      // Enough to seal a block while the walk is on.
      if (seen.length === 1) for (let i = 3; i < 5_000; i++) log.push(record(i));
    }
    expect(seen).toEqual(['b0', 'b1', 'b2']);
    expect([...log].map((r) => r.id)).toEqual(Array.from({ length: 5_000 }, (_, i) => `b${i}`));
  });

  it('when a walked record is changed then the log still yields the record as pushed', () => {
    const log = createRecordLog<Rec>();
    log.push(record(1));
    const [first] = [...log];
    first.items.push({ entity: 'card', id: 'changed' });
    expect([...log]).toEqual([record(1)]);
  });
});
