/**
 * compiler/bulk/object-reads.ts: the stored bytes of a run of objects, neighbours in a pack read
 * together into one re-used buffer, are each object's own bytes, in order, whatever the packs, gaps
 * and sizes; and a call after a larger one still gets its own bytes. The spans warmed ahead of a
 * patch (warmReads) cover the same objects, and a broken pack name among them fails nothing.
 */
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { coalescedReads, spansOf, warmReads } from '../../../compiler/bulk/object-reads.js';
import { createPackReader } from '../../../snapshots/packs/pack-reader.js';
import { createPackWriter } from '../../../snapshots/packs/pack-writer.js';
import { tempDir } from '../../helpers/cli.js';

describe('coalesced object reads', () => {
  it('give each object its own bytes across packs, gaps larger than a read, and calls of any size', () => {
    const dir = join(tempDir(), 'packs');
    // Small packs, so a run crosses from one pack to the next; filler objects make gaps between the listed ones.
    const writer = createPackWriter({ dir, targetBytes: 300 * 1024 });
    const listed: { bytes: Buffer; pack: number; offset: number; length: number }[] = [];
    for (let i = 0; i < 400; i++) {
      const bytes = randomBytes(200 + ((i * 7919) % 9000));
      listed.push({ bytes, ...writer.append(bytes) });
      writer.append(randomBytes(i % 25 === 0 ? 80 * 1024 : 3000));
    }
    const names = new Map(writer.finish().map((p) => [p.seq, p.sha256]));
    expect(names.size).toBeGreaterThan(3);
    const packs = createPackReader({ dir });
    try {
      const objects = coalescedReads(packs, { pack: (i) => names.get(listed[i].pack)!, offset: (i) => listed[i].offset, size: (i) => listed[i].length });
      for (const [a, b] of [[0, 400], [10, 12], [0, 1], [399, 400], [37, 261], [5, 5]]) {
        const got = objects(a, b).map((o) => Buffer.from(o));
        expect(got.length).toBe(b - a);
        got.forEach((o, k) => expect(o.equals(listed[a + k].bytes), `object ${a + k} of [${a}, ${b})`).toBe(true));
      }
    } finally {
      packs.close();
    }
  });
});

describe('pack reads warmed ahead', () => {
  it('spansOf covers each object of a run once, in order, and warmReads finishes with missing or misnamed packs among them', async () => {
    const dir = join(tempDir(), 'packs');
    const writer = createPackWriter({ dir, targetBytes: 64 * 1024 });
    const listed: { pack: number; offset: number; length: number }[] = [];
    for (let i = 0; i < 120; i++) listed.push(writer.append(randomBytes(500 + ((i * 131) % 4000))));
    const names = new Map(writer.finish().map((p) => [p.seq, p.sha256]));
    const at = { pack: (i: number) => names.get(listed[i].pack)!, offset: (i: number) => listed[i].offset, size: (i: number) => listed[i].length };
    const spans: number[] = [];
    const bytes = spansOf(at, 7, 110, spans);
    const covered: number[] = [];
    let sum = 0;
    for (let s = 0; s < spans.length; s += 4) {
      const [i, j, start, end] = spans.slice(s, s + 4);
      for (let k = i; k < j; k++) {
        covered.push(k);
        expect(at.pack(k)).toBe(at.pack(i));
        expect(listed[k].offset >= start && listed[k].offset + listed[k].length <= end).toBe(true);
      }
      sum += end - start;
    }
    expect(covered).toEqual(Array.from({ length: 103 }, (_, k) => 7 + k));
    expect(bytes).toBe(sum);
    await expect(warmReads(dir, at, spans)).resolves.toBeUndefined();
    // A pack gone, or a name that is not a pack hash, is left to the synchronous read to report.
    const broken = { ...at, pack: (i: number) => (i % 3 === 0 ? '0'.repeat(64) : i % 3 === 1 ? '../../etc/passwd' : at.pack(i)) };
    const brokenSpans: number[] = [];
    spansOf(broken, 0, 120, brokenSpans);
    await expect(warmReads(dir, broken, brokenSpans)).resolves.toBeUndefined();
  });
});
