/**
 * compiler/bulk/write-file.ts dictionaryTail: a segment's dictionary read from the end of the segment
 * before is the concatenation of its last lines covering DICTIONARY_BYTES (all of them when the
 * segment is shorter), whatever the line sizes; and with lines of a card file's size it reads only
 * the last TAIL_OBJECTS objects, not the whole segment (the point of reading from the end).
 */
import { describe, expect, it } from 'vitest';
import { encodeDocument } from '../../../snapshots/codec.js';
import { envelope } from '../../../snapshots/envelope.js';
import { createGunzipEngine } from '../../../snapshots/gzip-engine.js';
import { DICTIONARY_BYTES } from '../../../compiler/bulk/segmented-gzip.js';
import { dictionaryTail, TAIL_OBJECTS } from '../../../compiler/bulk/write-file.js';

/** `count` stored objects whose bulk lines are about `bytes` long (the data member and a newline). */
function objectsOf(count: number, bytes: number): { stored: Buffer[]; lines: Buffer[] } {
  const stored: Buffer[] = [];
  const lines: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const data = { id: `card-${i}`, text: 'x'.repeat(bytes + ((i * 37) % 200)) };
    stored.push(encodeDocument(envelope('card', null, data)));
    lines.push(Buffer.from(`${JSON.stringify(data)}\n`));
  }
  return { stored, lines };
}

/** The dictionary as the whole segment gives it: its last lines covering DICTIONARY_BYTES, or all. */
function expectedTail(lines: Buffer[], a: number, b: number): Buffer {
  const taken: Buffer[] = [];
  let length = 0;
  for (let i = b - 1; i >= a && length < DICTIONARY_BYTES; i--) {
    taken.unshift(lines[i]);
    length += lines[i].length;
  }
  return Buffer.concat(taken);
}

describe('dictionaryTail read from the end of a segment', () => {
  it.each([
    ['card-sized lines (2 KB)', 2048],
    ['short lines (a few needed beyond the first read)', 700],
    ['tiny lines (the whole segment)', 60],
    ['lines longer than a dictionary', 20_000],
  ])('gives the whole segment\'s tail for %s', (_label, bytes) => {
    const { stored, lines } = objectsOf(40, bytes);
    const gunzip = createGunzipEngine();
    for (const [a, b] of [[0, 15], [3, 8], [10, 11], [20, 40], [5, 5]]) {
      const asked: [number, number][] = [];
      const read = (x: number, y: number) => {
        asked.push([x, y]);
        return stored.slice(x, y);
      };
      const tail = dictionaryTail(gunzip, read, a, b, (i) => `v1/cards/card-${i}.json.gz`);
      expect(tail.equals(expectedTail(lines, a, b)), `[${a}, ${b}) of ${bytes}-byte lines`).toBe(true);
      // Never outside the segment, never an object twice.
      const objects = asked.flatMap(([x, y]) => Array.from({ length: y - x }, (_, k) => x + k));
      expect(new Set(objects).size).toBe(objects.length);
      expect(objects.every((i) => i >= a && i < b)).toBe(true);
    }
  });

  it('reads only the last TAIL_OBJECTS objects of a long segment of card-sized lines', () => {
    const { stored } = objectsOf(15, 2300);
    const asked: [number, number][] = [];
    dictionaryTail(createGunzipEngine(), (x, y) => (asked.push([x, y]), stored.slice(x, y)), 0, 15, (i) => `k${i}`);
    expect(asked).toEqual([[15 - TAIL_OBJECTS, 15]]);
  });
});
