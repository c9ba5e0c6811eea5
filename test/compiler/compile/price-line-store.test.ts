import { afterAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import Database from 'better-sqlite3';
import type { PriceSeriesRecord } from '../../../snapshots/records.js';
import {
  createPriceLineChunk, decodePriceLines, emptyLineFields, encodePriceLines, factsOfDecoded, idIs, recentDailyOf, tokenOf,
} from '../../../compiler/compile/price-line-codec.js';
import {
  appendToPriceLineFile, createPriceLineWriter, openPriceLines, PRICE_LINES_FILE, priceLineFacts, priceLinesVersion, readPriceLines, scanPriceLines, writePriceLines, type KnownPriceLine,
  type StoredPriceLine,
} from '../../../compiler/compile/price-line-store.js';
import { startReadAhead } from '../../../compiler/compile/read-ahead.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A line's key is the base64url SHA-1 of its bytes (27 characters), here of its number. */
const key = (n: number) => createHash('sha1').update(`line ${n}`).digest('base64url');
/** A 24-character input token of the line's entity, different for every line. */
const token = (n: number) => `t${String(n).padStart(23, '0')}`;
/** Its entity's slot: none for every fifth line, else one past 16 bits for some. */
const slotOf = (n: number) => (n % 5 === 4 ? -1 : (n * 70_001) % 0xffff_fff0);
const line = (n: number, record: PriceSeriesRecord): StoredPriceLine => ({ key: key(n), input: token(n), bytes: 100 + n, slot: slotOf(n), facts: priceLineFacts(record) });
/** What the store gives back for a line: its facts and its entity's input token. */
// `encoded`: the line's own bytes in its chunk, as the codec writes it alone.
const knownOf = (l: StoredPriceLine) => ({ ...l.facts, key: l.key, input: l.input, slot: l.slot, encoded: encodePriceLines([l]) });
/** A stored line as knownOf describes it: `encoded` is its bytes in its chunk. */
const seen = (k: KnownPriceLine | undefined) => k && { ...factsOfDecoded(k), key: k.key, input: k.input, slot: k.slot, encoded: k.chunk.subarray(k.start, k.next) };

const LINES: StoredPriceLine[] = [
  line(1, { entity: 'card', id: 'mtg-lea-1', start: '2026-10-01', usdCents: [100, 200, null, 250] }),
  // A velocity that rounds to 0 from a tiny fall.
  line(2, { entity: 'card', id: 'mtg-lea-2', start: '2026-11-18', usdCents: [1000000, 999999] }),
  // Cents past 32 bits, a synthetic series and an id beyond ASCII.
  line(3, { entity: 'figure', id: 'fig-é-3', start: '2025-01-01', usdCents: [5_000_000_000, null, 2 ** 40], synthetic: true }),
  // No price at all: no summary, no range, but a last day.
  line(4, { entity: 'card', id: 'mtg-lea-4', start: '2026-11-01', usdCents: [null, null] }),
  // An empty series: no last day either.
  line(5, { entity: 'card', id: 'mtg-lea-5', start: '2026-11-01', usdCents: [] }),
  line(6, { entity: 'card', id: 'mtg-lea-6', start: '2026-11-20', usdCents: [0] }),
];

describe('stored price lines', () => {
  it('when chunks are encoded and decoded then every line comes back as summarizePrices returned it', () => {
    const back = decodePriceLines(encodePriceLines(LINES));
    expect(back).toEqual(LINES);
    // The very numbers (Object.is: a -0 stays -0, which JSON would not keep).
    back!.forEach((l, i) => expect(Object.is(l.facts.summary?.velocity24h, LINES[i].facts.summary?.velocity24h)).toBe(true));
    // Same key order too: the summary objects are the same as a parse gives, also when serialized.
    expect(back!.map((l) => JSON.stringify(l.facts))).toEqual(LINES.map((l) => JSON.stringify(l.facts)));
  });

  it('when a chunk is built line by line in a re-used buffer then each chunk has the bytes encodePriceLines gives', () => {
    const chunk = createPriceLineChunk();
    for (const part of [LINES, LINES.slice(1), [...LINES, ...LINES, ...LINES]]) {
      for (const line of part) chunk.add(line);
      expect(chunk.lines).toBe(part.length);
      expect(chunk.bytes().equals(encodePriceLines(part))).toBe(true);
      expect(decodePriceLines(Buffer.from(chunk.bytes()))).toEqual(part);
      chunk.clear();
    }
  });

  it('when a chunk is cut short or has bytes after its last line then it does not decode, or only to its whole lines', () => {
    const bytes = encodePriceLines(LINES);
    // Cut at a line boundary the lines before it are well-formed: the chunk's SHA-1 and the stored
    // line count (readPriceLines) refuse such a chunk; never is a line decoded wrong.
    for (let cut = 1; cut < bytes.length; cut++) {
      const back = decodePriceLines(bytes.subarray(0, bytes.length - cut));
      if (back !== null) expect(back).toEqual(LINES.slice(0, back.length));
      if (back !== null) expect(back.length).toBeLessThan(LINES.length);
    }
    expect(decodePriceLines(Buffer.concat([bytes, Buffer.from([1, 2, 3])]))).toBeNull();
  });

  it('when written to a price lines file then only the same version reads them back, and a line only with its length', () => {
    const dir = mkdtempSync(join(tmpdir(), 'price-lines-'));
    dirs.push(dir);
    const path = join(dir, 'price-lines.sqlite');
    new Database(path).close();
    writePriceLines(path, { version: 'v1', lines: LINES });
    const stored = readPriceLines(path, 'v1');
    expect(stored.size).toBe(LINES.length);
    expect(seen(stored.get(key(3), 103))).toEqual(knownOf(LINES[2]));
    expect(stored.get(key(3), 104)).toBeUndefined();
    stored.close();
    expect(readPriceLines(path, 'v2').size).toBe(0);
    expect(readPriceLines(join(dir, 'missing.sqlite'), 'v1').size).toBe(0);
    // Written again (as into a copy of the previous file): replaced, not added to.
    writePriceLines(path, { version: 'v1', lines: LINES.slice(0, 2) });
    expect(readPriceLines(path, 'v1').size).toBe(2);
  });

  it('when lines are written as they are read, inside the index transaction, then they are stored only if it commits', () => {
    const dir = mkdtempSync(join(tmpdir(), 'price-lines-'));
    dirs.push(dir);
    const path = join(dir, 'price-lines.sqlite');
    // More than two chunks of the store (10,000 lines each), the last one partial.
    const many = Array.from({ length: 23_456 }, (_, n) => line(n, { entity: 'card', id: `c-${n}`, start: '2026-11-01', usdCents: [n, n + 1] }));
    const fill = (commit: boolean) => {
      const db = new Database(path);
      db.exec('BEGIN');
      const writer = createPriceLineWriter(db, 'v1', basename(dir));
      for (const l of many) writer.add(l);
      expect(writer.finish()).toBe(many.length);
      expect(() => writer.add(many[0])).toThrow(/after finish/);
      db.exec(commit ? 'COMMIT' : 'ROLLBACK');
      db.close();
    };
    fill(false);
    expect(readPriceLines(path, 'v1').size).toBe(0);
    fill(true);
    const stored = readPriceLines(path, 'v1');
    expect(stored.size).toBe(many.length);
    for (const n of [0, 9_999, 10_000, 23_455]) expect(seen(stored.get(key(n), 100 + n))).toEqual(knownOf(many[n]));
    stored.close();
  });

  it('when lines are asked for out of order then each comes from its chunk read back, and a chunk changed since opening gives no line rather than a wrong one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'price-lines-'));
    dirs.push(dir);
    const path = join(dir, 'price-lines.sqlite');
    new Database(path).close();
    // Seven chunks, more than the four kept read at once.
    const many = Array.from({ length: 65_000 }, (_, n) => line(n, { entity: 'card', id: `c-${n}`, start: '2026-11-01', usdCents: [n] }));
    writePriceLines(path, { version: 'v1', lines: many });
    const stored = readPriceLines(path, 'v1');
    const order = [64_999, 0, 31_000, 10_001, 0, 52_000, 41_000, 20_500, 64_998, 5];
    for (const n of order) expect(seen(stored.get(key(n), 100 + n))).toEqual(knownOf(many[n]));
    // Chunk 3 (lines 30,000-39,999) is rewritten in the file after the store was opened: its SHA-1
    // no longer matches, so its lines are unknown; the other chunks still read.
    const db = new Database(path);
    db.prepare('UPDATE price_lines SET lines = zeroblob(length(lines)) WHERE chunk = 3').run();
    db.close();
    expect(stored.get(key(35_000), 100 + 35_000)).toBeUndefined();
    expect(seen(stored.get(key(45_000), 100 + 45_000))).toEqual(knownOf(many[45_000]));
    stored.close();
    expect(stored.get(key(0), 100)).toBeUndefined();
  });

  it('when a line is found in place then its fields are what get decodes, and stored again from them it is the same line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'price-lines-'));
    dirs.push(dir);
    const path = join(dir, 'price-lines.sqlite');
    const copy = join(dir, 'copy.sqlite');
    for (const p of [path, copy]) new Database(p).close();
    const many = [...LINES, ...Array.from({ length: 25_000 }, (_, n) => line(n + 10, { entity: n % 3 ? 'card' : 'figure', id: `e-${n}`, start: '2026-11-01', usdCents: [n, null, n * 7] }))];
    writePriceLines(path, { version: 'v1', lines: many });
    const stored = readPriceLines(path, 'v1');
    const fields = emptyLineFields();
    const nullable = (c: number) => (Number.isNaN(c) ? null : c);
    const db = new Database(copy);
    db.exec('BEGIN');
    const writer = createPriceLineWriter(db, 'v1', basename(dir));
    // Checked with plain comparisons and asserted once: 25,000 lines times a dozen expect() calls took
    // a minute under vitest, against a tenth of a second for the work itself.
    const wrong: unknown[] = [];
    const check = (l: StoredPriceLine, what: string, got: unknown, want: unknown) => {
      if (!isDeepStrictEqual(got, want)) wrong.push({ key: l.key, what, got, want });
    };
    for (const l of many) {
      const known = stored.get(l.key, l.bytes)!;
      check(l, 'found', stored.find(l.key, l.bytes, fields), true);
      const latest = fields.lastDate === null ? null
        : { lastDate: fields.lastDate, lastCents: fields.lastCents, previousCents: nullable(fields.previousCents), velocity24h: nullable(fields.velocity), synthetic: fields.synthetic };
      // Strict deep equality compares numbers with Object.is, so a velocity of -0 is not taken for 0.
      check(l, 'latest', latest, known.latest);
      check(l, 'range', fields.from === null ? null : { from: fields.from, to: fields.to }, known.range);
      check(l, 'fields', [fields.entityCode === 0 ? 'card' : 'figure', fields.slot, fields.end, fields.bytes, tokenOf(fields)], [known.entity, known.slot, known.end, known.bytes, known.input]);
      check(l, 'recent daily', recentDailyOf(fields), recentDailyOf(known));
      check(l, 'bytes', fields.chunk.subarray(fields.start, fields.next).equals(known.chunk.subarray(known.start, known.next)), true);
      // The id compared in place: an ASCII id is, any other id is not (one beyond ASCII never is: the caller looks it up).
      check(l, 'id', idIs(fields, l.facts.id), /^[\x00-\x7f]*$/.test(l.facts.id));
      check(l, 'other id', idIs(fields, `${l.facts.id}x`), false);
      writer.addEncoded(fields);
      // Another length, or a key the store lacks: not found.
      check(l, 'other length', stored.find(l.key, l.bytes + 1, fields), false);
    }
    expect(wrong).toEqual([]);
    expect(stored.find(key(999_999), 100, fields)).toBe(false);
    expect(writer.finish()).toBe(many.length);
    db.exec('COMMIT');
    db.close();
    stored.close();
    expect(stored.find(many[0].key, many[0].bytes, fields)).toBe(false);
    const again = readPriceLines(copy, 'v1');
    // vitest's toEqual walks a Buffer byte by byte as an object (half a minute here); Node's strict deep equality does not.
    expect(many.filter((l) => !isDeepStrictEqual(seen(again.get(l.key, l.bytes)), knownOf(l))).map((l) => l.key)).toEqual([]);
    again.close();
  });

  it('when stored lines are stored again as they were then the next store gives the same lines', () => {
    const dir = mkdtempSync(join(tmpdir(), 'price-lines-'));
    dirs.push(dir);
    const first = join(dir, 'first.sqlite');
    const second = join(dir, 'second.sqlite');
    for (const p of [first, second]) new Database(p).close();
    const many = Array.from({ length: 12_000 }, (_, n) => line(n, { entity: n % 2 ? 'card' : 'figure', id: `e-${n}`, start: '2026-11-01', usdCents: [n, null, n * 3] }));
    writePriceLines(first, { version: 'v1', lines: many });
    const stored = readPriceLines(first, 'v1');
    const db = new Database(second);
    db.exec('BEGIN');
    const writer = createPriceLineWriter(db, 'v1', basename(dir));
    // Every other line kept as it was, the others written from their facts: the same store.
    many.forEach((l, n) => (n % 2 ? writer.addEncoded(stored.get(l.key, l.bytes)!) : writer.add(l)));
    expect(writer.finish()).toBe(many.length);
    db.exec('COMMIT');
    db.close();
    stored.close();
    const again = readPriceLines(second, 'v1');
    for (const n of [0, 1, 9_999, 10_000, 11_999]) expect(seen(again.get(key(n), 100 + n))).toEqual(knownOf(many[n]));
    again.close();
  });

  it('when stored lines are kept in runs, skipped and interleaved then the store holds exactly the lines added, in order', () => {
    const dir = mkdtempSync(join(tmpdir(), 'price-lines-'));
    dirs.push(dir);
    const [first, second, expected] = ['first', 'second', 'expected'].map((n) => join(dir, `${n}.sqlite`));
    for (const p of [first, second, expected]) new Database(p).close();
    const many = Array.from({ length: 25_000 }, (_, n) => line(n, { entity: 'card', id: `c-${n}`, start: '2026-11-01', usdCents: [n, n + 1] }));
    writePriceLines(first, { version: 'v1', lines: many });
    // Kept runs (one crossing the first store's chunk at 10,000, so its bytes come from two chunks),
    // a line left out inside a run, lines written from their facts between, a run out of order.
    const plan: { n: number; kept: boolean }[] = [];
    const keep = (from: number, to: number) => {
      for (let n = from; n < to; n++) if (n !== 5_005) plan.push({ n, kept: true });
    };
    keep(0, 9_000);
    plan.push({ n: 9_000, kept: false });
    keep(9_001, 12_000);
    keep(20_000, 25_000);
    plan.push({ n: 12_000, kept: false }, { n: 5_005, kept: true });
    keep(12_001, 20_000);
    const stored = readPriceLines(first, 'v1');
    const db = new Database(second);
    db.exec('BEGIN');
    const writer = createPriceLineWriter(db, 'v1', basename(dir));
    for (const { n, kept } of plan) {
      if (kept) writer.addEncoded(stored.get(many[n].key, many[n].bytes)!);
      else writer.add(many[n]);
    }
    expect(writer.finish()).toBe(plan.length);
    db.exec('COMMIT');
    db.close();
    stored.close();
    // The same lines written from their facts alone, in the plan's order: the same chunks, byte for byte.
    writePriceLines(expected, { version: 'v1', lines: plan.map(({ n }) => many[n]) });
    const chunks = (path: string) => {
      const d = new Database(path, { readonly: true });
      // The chunks' SHA-1s are of their bytes (made from them as they were inserted): compared as
      // hex, since a deep equality of megabytes of blobs takes the test runner half a minute.
      const rows = d.prepare('SELECT chunk, hex(sha1) AS sha1, length(lines) AS bytes FROM price_lines ORDER BY chunk').all();
      d.close();
      return rows;
    };
    expect(chunks(second)).toHaveLength(3);
    expect(chunks(second)).toEqual(chunks(expected));
  });

  it('when the lines are scanned on the read-ahead thread then the scan opened on this thread gives what readPriceLines gives', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'price-lines-'));
    dirs.push(dir);
    const path = join(dir, 'price-lines.sqlite');
    // More lines than one chunk holds (CHUNK: 10,000), so places in a later chunk cross the thread too.
    const many = Array.from({ length: 12_345 }, (_, i) => line(i + 10, { entity: 'card', id: `c${i}`, start: '2026-11-01', usdCents: [i, i + 1] }));
    writePriceLines(path, { version: 'v1', lines: many });
    for (const mode of ['worker', 'inline'] as const) {
      const ahead = startReadAhead(mode);
      try {
        const scanned = await ahead.priceLines(path, 'v1');
        expect(scanned, mode).not.toBeNull();
        const stored = openPriceLines(path, scanned);
        const direct = readPriceLines(path, 'v1');
        expect(stored.size).toBe(many.length);
        for (const i of [0, 1, 9_999, 10_000, 12_344]) {
          const l = many[i];
          expect(seen(stored.get(l.key, l.bytes)), `${mode} line ${i}`).toEqual(knownOf(l));
          expect(seen(stored.get(l.key, l.bytes))).toEqual(seen(direct.get(l.key, l.bytes)));
        }
        expect(stored.get(key(1), 101)).toBeUndefined();
        stored.close();
        direct.close();
        // Another version, or no file: no scan, and nothing to open.
        expect(await ahead.priceLines(path, 'v2')).toBeNull();
        expect(await ahead.priceLines(join(dir, 'missing.sqlite'), 'v1')).toBeNull();
        expect(openPriceLines(path, null).size).toBe(0);
      } finally {
        await ahead.close();
      }
    }
    expect(scanPriceLines(path, 'v1')?.keys.size).toBe(many.length);
  });

  it('when the renderer code hash differs then so does the version the lines are trusted under', () => {
    expect(priceLinesVersion('renderer A')).toBe(priceLinesVersion('renderer A'));
    expect(priceLinesVersion('renderer A')).not.toBe(priceLinesVersion('renderer B'));
  });
});

describe('a price lines file appended to (only prices changed)', () => {
  /** A previous snapshot's folder with LINES stored, and a new snapshot's folder. */
  const folders = () => {
    const root = mkdtempSync(join(tmpdir(), 'price-lines-append-'));
    dirs.push(root);
    const previous = join(root, 'previous');
    const next = join(root, 'next');
    mkdirSync(previous);
    mkdirSync(next);
    writePriceLines(join(previous, PRICE_LINES_FILE), { version: 'v1', lines: LINES });
    return { previous: join(previous, PRICE_LINES_FILE), next, path: join(next, PRICE_LINES_FILE) };
  };
  const NEW = line(7, { entity: 'card', id: 'mtg-lea-7', start: '2026-11-01', usdCents: [300] });

  it('when lines are kept and one is added then the file holds the old lines and the new one, and only the kept ones and the new one are live', () => {
    const f = folders();
    const scanned = scanPriceLines(f.previous, 'v1');
    const stored = openPriceLines(f.previous, scanned);
    const writer = appendToPriceLineFile(f.next, f.previous, 'v1', scanned)!;
    expect(writer).not.toBeNull();
    // Lines 1-4 accepted again (their stored bytes), 5 and 6 not (their entities have other lines now).
    for (const n of [1, 2, 3, 4]) writer.addEncoded(stored.get(key(n), 100 + n)!);
    writer.add(NEW);
    expect(writer.finish()).toBe(5);
    stored.close();
    const again = scanPriceLines(f.path, 'v1')!;
    expect({ lines: again.lines, live: again.live }).toEqual({ lines: 7, live: 5 });
    const back = openPriceLines(f.path, again);
    try {
      for (const n of [1, 2, 3, 4, 7]) expect(back.get(key(n), 100 + n)?.live).toBe(true);
      // The superseded lines are still there, as facts (not parsed again), but not live: `find`, which
      // re-uses an entity's objects in place, refuses them.
      for (const n of [5, 6]) {
        expect(seen(back.get(key(n), 100 + n))).toEqual(knownOf(LINES[n - 1]));
        expect(back.get(key(n), 100 + n)?.live).toBe(false);
        expect(back.find(key(n), 100 + n, emptyLineFields())).toBe(false);
      }
      expect(back.find(key(1), 101, emptyLineFields())).toBe(true);
    } finally {
      back.close();
    }
    // One file, shared with the previous snapshot, whose own view is what it was: its six lines live,
    // the appended one not (a compile killed after this commit leaves the previous store whole).
    expect(statSync(f.path).ino).toBe(statSync(f.previous).ino);
    const previousView = scanPriceLines(f.previous, 'v1')!;
    expect({ lines: previousView.lines, live: previousView.live }).toEqual({ lines: 7, live: 6 });
    const before = openPriceLines(f.previous, previousView);
    try {
      for (const n of [1, 2, 3, 4, 5, 6]) expect(before.find(key(n), 100 + n, emptyLineFields())).toBe(true);
      expect(before.get(key(7), 107)?.live).toBe(false);
    } finally {
      before.close();
    }
  });

  it('when the compile stops before finishing then the previous file is as it was and the new folder has none', () => {
    const f = folders();
    const before = readFileSync(f.previous);
    const scanned = scanPriceLines(f.previous, 'v1');
    const writer = appendToPriceLineFile(f.next, f.previous, 'v1', scanned)!;
    for (let n = 0; n < 30_000; n++) writer.add({ ...NEW, key: key(1000 + n) });
    writer.abort();
    expect(existsSync(f.path)).toBe(false);
    expect(readFileSync(f.previous).equals(before)).toBe(true);
    expect(scanPriceLines(f.previous, 'v1')?.lines).toBe(LINES.length);
  });

  it('when a stored line must be stored again with another input then the file is finished under no version, and the next compile parses every line', () => {
    const f = folders();
    const scanned = scanPriceLines(f.previous, 'v1');
    const writer = appendToPriceLineFile(f.next, f.previous, 'v1', scanned)!;
    writer.add({ ...LINES[0], input: token(99) }, true);
    writer.finish();
    expect(scanPriceLines(f.path, 'v1')).toBeNull();
  });

  it('when more than a fifth of the lines are superseded, or there is no scan, then nothing is appended and the caller writes afresh', () => {
    const f = folders();
    let scanned = scanPriceLines(f.previous, 'v1')!;
    expect(appendToPriceLineFile(f.next, f.previous, 'v1', null)).toBeNull();
    // Two of six superseded.
    const writer = appendToPriceLineFile(f.next, f.previous, 'v1', scanned)!;
    for (const n of [1, 2, 3, 4]) writer.addEncoded({ chunk: Buffer.alloc(0), start: 0, next: 0, ordinal: n - 1 });
    writer.finish();
    scanned = scanPriceLines(f.path, 'v1')!;
    expect({ lines: scanned.lines, live: scanned.live }).toEqual({ lines: 6, live: 4 });
    const third = join(f.next, '..', 'third');
    mkdirSync(third);
    expect(appendToPriceLineFile(third, f.path, 'v1', scanned)).toBeNull();
    expect(existsSync(join(third, PRICE_LINES_FILE))).toBe(false);
  });

  it('when the live lines recorded do not match their count, or the folder has no row of its own, then the file is not used', () => {
    const f = folders();
    const db = new Database(f.previous);
    db.prepare('UPDATE price_lines_live SET live = live - 1').run();
    db.close();
    expect(scanPriceLines(f.previous, 'v1')).toBeNull();
    const db2 = new Database(f.previous);
    db2.prepare('UPDATE price_lines_live SET live = live + 1, bits = ?').run(Buffer.from([0xff]));
    db2.close();
    // Bits past the last line.
    expect(scanPriceLines(f.previous, 'v1')).toBeNull();
    const db3 = new Database(f.previous);
    db3.prepare('UPDATE price_lines_live SET bits = ?, snapshot = ?').run(Buffer.from([0x3f]), 'another');
    db3.close();
    // Whole again, but another snapshot's: this folder's compile accepted nothing it knows of.
    expect(scanPriceLines(f.previous, 'v1')).toBeNull();
  });
});
