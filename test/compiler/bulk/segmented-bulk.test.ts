/**
 * The document bulk files are one gzip member made of independently compressed segments
 * (compiler/bulk/segmented-gzip.ts): any gzip reader reads them, an incremental build copies the
 * segments whose lines did not change, and the result is the same file a fresh build makes.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync, constants, crc32, gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { buildBulkFile, documentJob } from '../../../compiler/bulk/write-bulk.js';
import { crc32Combine, DICTIONARY_BYTES, TABLE_TAG, readSegmentTable, SEGMENT_MAX, SEGMENT_MIN, segmentedHeader, segmentsOf } from '../../../compiler/bulk/segmented-gzip.js';
import type { BulkFile, ManifestEntry } from '../../../snapshots/manifest.js';
import { sha256Hex } from '../../../snapshots/codec.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'bulk-seg-'));
  dirs.push(d);
  return d;
};

const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `c-${String(from + i).padStart(5, '0')}`);

function writeCards(dir: string, cards: Map<string, number>, skip: Set<string> = new Set()): ManifestEntry[] {
  return [...cards].map(([id, price]) => {
    const key = `v1/cards/${id}/30d.json.gz`;
    const json = `{"apiVersion":"v1","asOf":"2026-11-20T00:00:00.000Z","data":{"id":"${id}","marketCents":${price},"name":"Card ${id} of a fairly long name"},"kind":"card","schemaVersion":1,"warnings":[]}`;
    const bytes = gzipSync(json);
    if (!skip.has(id)) {
      mkdirSync(join(dir, 'v1/cards', id), { recursive: true });
      writeFileSync(join(dir, key), bytes);
    }
    return { key, size: bytes.length, sha256: sha256Hex(bytes), input: null };
  });
}

const objectsOf = (entries: ManifestEntry[]) => new Map(entries.map((e) => [e.key, { sha256: e.sha256 }]));
const cardsOf = (list: string[], price = (i: number) => 100 + i) => new Map(list.map((id, i) => [id, price(i)]));

async function build(cards: Map<string, number>, previous?: { dir: string; entries: ManifestEntry[]; file: BulkFile }, skip?: Set<string>) {
  const dir = tmp();
  const entries = writeCards(dir, cards, skip);
  const job = documentJob('cards', entries, previous ? objectsOf(previous.entries) : null);
  const file = await buildBulkFile(job, dir, previous?.dir ?? null, previous ? new Map([['cards', previous.file]]) : new Map());
  return { dir, entries, file, bytes: readFileSync(join(dir, file.file)) };
}

describe('segmented bulk files', () => {
  it('when two CRCs are combined then the result is the CRC of the two texts one after the other', () => {
    for (const [a, b] of [['', 'x'], ['hello ', 'world'], ['a'.repeat(70_000), 'b'.repeat(123_457)], ['{"id":1}\n', '']]) {
      expect(crc32Combine(crc32(a), crc32(b), Buffer.byteLength(b))).toBe(crc32(a + b) >>> 0);
    }
  });

  it('when a file is built then every gzip reader reads all its lines and its header holds one length per segment', async () => {
    const list = ids(600);
    const { dir, file, bytes } = await build(cardsOf(list));
    const lines = gunzipSync(bytes).toString().split('\n').slice(0, -1);
    expect(lines.map((l) => JSON.parse(l).id)).toEqual(list);
    expect(execFileSync('gzip', ['-dc', join(dir, file.file)]).equals(gunzipSync(bytes))).toBe(true);
    const table = readSegmentTable(join(dir, file.file), bytes.length)!;
    expect(table.segments.length).toBe(segmentsOf(list.map((id) => `v1/cards/${id}/30d.json.gz`)).length);
    expect(table.segments.length).toBeGreaterThan(3);
  });

  it('when 1% of the lines changed and cards were added and removed then the incremental build equals a fresh build', async () => {
    const before = cardsOf(ids(2000));
    const prev = await build(before);
    const after = new Map(before);
    let n = 0;
    for (const id of before.keys()) if (n++ % 100 === 0) after.set(id, after.get(id)! + 1);
    after.delete('c-00500');
    after.delete('c-01234');
    for (const id of ids(3, 5000)) after.set(id, 7);
    // Unchanged cards have no object in the new folder: their lines can only come from the previous file.
    const unchanged = new Set([...after].filter(([id, p]) => before.get(id) === p).map(([id]) => id));
    const incremental = await build(after, prev, unchanged);
    const fresh = await build(after);
    expect(incremental.bytes.equals(fresh.bytes)).toBe(true);
    expect(incremental.file.sha256).toBe(fresh.file.sha256);
  });

  it('when a segment is unchanged then its compressed bytes are copied, not compressed again', async () => {
    const list = ids(400);
    const prev = await build(cardsOf(list));
    // Re-encode the previous file's first segment at level 1: the same lines, other bytes.
    const path = join(prev.dir, prev.file.file);
    const old = readFileSync(path);
    const table = readSegmentTable(path, old.length)!;
    const [a, b] = segmentsOf(list.map((id) => `v1/cards/${id}/30d.json.gz`))[0];
    const firstLines = gunzipSync(old).toString().split('\n').slice(a, b).join('\n') + '\n';
    const level1 = deflateRawSync(Buffer.from(firstLines), { level: 1, finishFlush: constants.Z_SYNC_FLUSH });
    const first = { compressed: level1.length, crc: crc32(firstLines), length: Buffer.byteLength(firstLines) };
    const rest = old.subarray(table.offsets[0] + table.segments[0].compressed);
    const doctored = Buffer.concat([segmentedHeader([first, ...table.segments.slice(1)]), level1, rest]);
    expect(gunzipSync(doctored).equals(gunzipSync(old))).toBe(true);
    writeFileSync(path, doctored);
    const file = { ...prev.file, size: doctored.length, sha256: sha256Hex(doctored) };

    // Only the last card changes: the first segment is copied as it is in the previous file.
    const after = cardsOf(list, (i) => (i === list.length - 1 ? 1 : 100 + i));
    const incremental = await build(after, { ...prev, file });
    expect(incremental.bytes.includes(level1)).toBe(true);
    expect(gunzipSync(incremental.bytes).equals(gunzipSync((await build(after)).bytes))).toBe(true);
  });

  /**
   * The previous file with segments `which` stored again uncompressed (level 0: the same lines, bytes no
   * compression level gives), and its manifest entry; `tag` replaces the format in the table.
   */
  function doctor(prev: { dir: string; file: BulkFile }, list: string[], which: number[], tag?: string) {
    const path = join(prev.dir, prev.file.file);
    const old = readFileSync(path);
    const table = readSegmentTable(path, old.length)!;
    const segments = segmentsOf(list.map((id) => `v1/cards/${id}/30d.json.gz`));
    const text = gunzipSync(old);
    const lines = text.toString().split('\n').slice(0, -1).map((l) => Buffer.from(l + '\n'));
    const textOf = ([a, b]: [number, number]) => Buffer.concat(lines.slice(a, b));
    const parts: Buffer[] = [];
    const facts = table.segments.map((f, s) => {
      if (!which.includes(s)) {
        parts.push(old.subarray(table.offsets[s], table.offsets[s] + f.compressed));
        return f;
      }
      const options = { level: 0, finishFlush: constants.Z_SYNC_FLUSH };
      const before = s === 0 ? null : textOf(segments[s - 1]).subarray(-DICTIONARY_BYTES);
      const bytes = deflateRawSync(textOf(segments[s]), before ? { ...options, dictionary: before } : options);
      parts.push(bytes);
      return { ...f, compressed: bytes.length };
    });
    let header = segmentedHeader(facts);
    if (tag) header = Buffer.from(header.toString('latin1').replace(TABLE_TAG, tag), 'latin1');
    const doctored = Buffer.concat([header, ...parts, old.subarray(old.length - 10)]);
    expect(gunzipSync(doctored).equals(text)).toBe(true);
    writeFileSync(path, doctored);
    return { doctored, parts, file: { ...prev.file, size: doctored.length, sha256: sha256Hex(doctored) } };
  }

  it('when a segment changed then the one after it is compressed again (its dictionary changed) and the others are copied', async () => {
    const list = ids(400);
    const prev = await build(cardsOf(list));
    const segments = segmentsOf(list.map((id) => `v1/cards/${id}/30d.json.gz`));
    expect(segments.length).toBeGreaterThan(6);
    const { parts, file } = doctor(prev, list, [2, 4]);
    // A card of segment 3 changes: segment 4's dictionary is segment 3's lines.
    const changed = segments[3][0];
    const after = cardsOf(list, (i) => (i === changed ? 1 : 100 + i));
    const incremental = await build(after, { ...prev, file });
    expect(incremental.bytes.includes(parts[2])).toBe(true);
    expect(incremental.bytes.includes(parts[4])).toBe(false);
    expect(gunzipSync(incremental.bytes).equals(gunzipSync((await build(after)).bytes))).toBe(true);
    // The segment after a compressed one is compressed against its lines too, and any reader reads it.
    expect(execFileSync('gzip', ['-dc', join(incremental.dir, incremental.file.file)]).equals(gunzipSync(incremental.bytes))).toBe(true);
  });

  it.each(['catalog-bulk-segments/1', 'catalog-bulk-segments/2'])('when the previous file is of an earlier segment format (%s) then none of it is copied', async (tag) => {
    const list = ids(400);
    const prev = await build(cardsOf(list));
    const { parts, file } = doctor(prev, list, [1], tag);
    const after = cardsOf(list, (i) => (i === list.length - 1 ? 1 : 100 + i));
    const incremental = await build(after, { ...prev, file });
    expect(incremental.bytes.includes(parts[1])).toBe(false);
    expect(incremental.bytes.equals((await build(after)).bytes)).toBe(true);
  });

  it('when segments are cut then each holds SEGMENT_MIN to SEGMENT_MAX lines but the last', () => {
    const segments = segmentsOf(ids(5000).map((id) => `v1/cards/${id}/30d.json.gz`));
    for (const [a, b] of segments.slice(0, -1)) {
      expect(b - a).toBeGreaterThanOrEqual(SEGMENT_MIN);
      expect(b - a).toBeLessThanOrEqual(SEGMENT_MAX);
    }
    expect(segments.at(-1)![1]).toBe(5000);
    // Content-defined: most end on a key that hashes to 0, not at the maximum (0.8^5 = 33% do).
    expect(segments.filter(([a, b]) => b - a === SEGMENT_MAX).length).toBeLessThan(segments.length / 2);
  });

  it('when the previous file does not match its manifest entry then no segment of it is used', async () => {
    const list = ids(400);
    const prev = await build(cardsOf(list));
    const path = join(prev.dir, prev.file.file);
    const bytes = readFileSync(path);
    bytes[bytes.length - 20] ^= 0xff; // inside the last segment; size unchanged
    writeFileSync(path, bytes);
    const after = cardsOf(list, (i) => (i === 0 ? 1 : 100 + i));
    const incremental = await build(after, prev);
    expect(incremental.bytes.equals((await build(after)).bytes)).toBe(true);
  });
});
