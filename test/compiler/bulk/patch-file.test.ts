/**
 * A document bulk file patched from the changed objects alone (compiler/bulk/patch-file.ts), against
 * real pack files and a real previous object index: the same bytes, input fingerprint and segment
 * state a full build of the new objects makes; only the segments around a change compressed again;
 * and the long way taken whenever the shortcut cannot be trusted.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { writeObjectIndex, type IndexRow } from '../../../snapshots/packs/object-index.js';
import { createPackWriter } from '../../../snapshots/packs/pack-writer.js';
import { documentPatch, patchedJob, type PatchedObject } from '../../../compiler/bulk/patch-job.js';
import { openPatchBase, planDocumentPatch } from '../../../compiler/bulk/patch-file.js';
import { readSegmentState, SEGMENT_STATE_FILE } from '../../../compiler/bulk/segment-state.js';
import { buildBulkFile, documentJob } from '../../../compiler/bulk/write-bulk.js';
import { startBulkFiles } from '../../../compiler/bulk/background-bulk.js';
import { readSegmentTable } from '../../../compiler/bulk/segmented-gzip.js';
import { MANIFEST_FORMAT, type BulkFile } from '../../../snapshots/manifest.js';
import { MANIFEST_FILE } from '../../../snapshots/keys.js';
import { tempDir } from '../../helpers/cli.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const CARDS = 3000;
const id = (n: number) => `c${String(n).padStart(5, '0')}`;
const RANGES = ['12mo', '30d', '3mo', '6mo', 'all'];

/** About 2 KB a line, as at a million cards: a segment's dictionary (12 KiB) is its last 5-6 lines. */
function documentOf(card: string, range: string, price: number): Buffer {
  const text = Array.from({ length: 200 }, (_, i) => `${card}:${(i * 7919 + price) % 1000}`).join(' ');
  const json = `{"apiVersion":"v1","asOf":"2026-11-20T00:00:00.000Z","data":{"id":"${card}","range":"${range}","marketCents":${price},"name":"Card ${card}, a name long enough to compress","text":"${text} é"},"kind":"card","schemaVersion":1,"warnings":[]}`;
  return gzipSync(json);
}

interface Stored { key: string; sha256: string; size: number; pack: string; offset: number }

/** Every card's five range objects in one pack (a snapshot's), with prices from `price`. */
function writeObjects(packsDir: string, cards: number[], price: (n: number) => number): Stored[] {
  const writer = createPackWriter({ dir: packsDir });
  const placed = cards.flatMap((n) => RANGES.map((range) => {
    const bytes = documentOf(id(n), range, price(n));
    const at = writer.append(bytes);
    return { key: `v1/cards/${id(n)}/${range}.json.gz`, sha256: sha(bytes), size: bytes.length, seq: at.pack, offset: at.offset };
  }));
  const packs = writer.finish();
  const name = new Map(packs.map((p) => [p.seq, p.sha256]));
  return placed.map((p) => ({ key: p.key, sha256: p.sha256, size: p.size, pack: name.get(p.seq)!, offset: p.offset })).sort((a, b) => (a.key < b.key ? -1 : 1));
}

function writeIndex(path: string, objects: Stored[]): void {
  const packNames = [...new Set(objects.map((o) => o.pack))];
  const seq = new Map(packNames.map((p, i) => [p, i]));
  const rows: IndexRow[] = objects.map((o) => ({ key: o.key, pack: seq.get(o.pack)!, offset: o.offset, length: o.size, sha256: o.sha256, input: null }));
  const db = new Database(path);
  writeObjectIndex(db, packNames.map((p) => ({ sha256: p, size: 1 })), rows);
  db.close();
}

const fullJob = (packsDir: string, objects: Stored[]) => documentJob('cards', objects, null, { packsDir, of: (e) => e });

/** A previous snapshot built in full, and a 1% price change written to a second pack. */
async function scenario(changedWhen: (n: number) => boolean = (n) => n % 97 === 5) {
  const root = tempDir();
  const packsDir = join(root, 'packs');
  const before = writeObjects(packsDir, Array.from({ length: CARDS }, (_, i) => i), (n) => 100 + n);
  const prevDir = join(root, 'prev');
  const prevIndex = join(root, 'prev-objects.sqlite');
  writeIndex(prevIndex, before);
  const prevFile = await buildBulkFile(fullJob(packsDir, before), prevDir, null, new Map());
  const changedCards = Array.from({ length: CARDS }, (_, i) => i).filter(changedWhen);
  const fresh = writeObjects(packsDir, changedCards, (n) => 7000 + n);
  const changedKeys = new Set(fresh.map((o) => o.key));
  const after = [...before.filter((o) => !changedKeys.has(o.key)), ...fresh].sort((a, b) => (a.key < b.key ? -1 : 1));
  const changed: PatchedObject[] = fresh
    .filter((o) => o.key.endsWith('/30d.json.gz'))
    .map((o) => ({ key: o.key, size: o.size, digest: Buffer.from(o.sha256, 'hex'), pack: o.pack, offset: o.offset }));
  return { root, packsDir, prevDir, prevIndex, prevFile, after, changed, changedCards };
}

const bytesOf = (dir: string, file: BulkFile) => readFileSync(join(dir, file.file));

describe('a document bulk file patched from the changed objects', () => {
  it('when 1% of the cards changed then the file, its input and its segment state are a full build\'s, and only the segments around a change were compressed', async () => {
    const s = await scenario();
    const patch = documentPatch('cards', s.prevIndex, s.packsDir, s.changed).patch!;
    const plan = planDocumentPatch(patch, s.prevFile, s.prevDir)!;
    expect(plan).not.toBeNull();
    // 31 changed cards, in 31 segments (97 lines apart, a segment holds at most 15).
    expect(plan.touched).toBe(s.changedCards.length);
    const segments = readSegmentTable(join(s.prevDir, s.prevFile.file), s.prevFile.size)!.segments;
    const planned = plan.write(join(s.root, 'planned.ndjson.gz'));
    // Each touched segment is compressed again, and the next one when the change is in its dictionary.
    expect(planned.compressed).toBeGreaterThan(plan.touched);
    expect(planned.compressed).toBeLessThan(2 * plan.touched);
    // The unchanged lines of every segment compressed again came from the previous file's segment.
    expect(planned.inflated).toBe(planned.compressed);
    const written = readSegmentTable(join(s.root, 'planned.ndjson.gz'), planned.size)!.segments;
    expect(written.filter((f, i) => f.crc !== segments[i].crc)).toHaveLength(plan.touched);

    const patchedDir = join(s.root, 'patched');
    const patched = await buildBulkFile(documentPatch('cards', s.prevIndex, s.packsDir, s.changed), patchedDir, s.prevDir, new Map([['cards', s.prevFile]]));
    const fullDir = join(s.root, 'full');
    const full = await buildBulkFile(fullJob(s.packsDir, s.after), fullDir, null, new Map());
    expect(patched).toEqual(full);
    expect(patched.input).toBe(plan.input);
    expect(patched.sha256).toBe(planned.sha256);
    expect(bytesOf(patchedDir, patched).equals(bytesOf(fullDir, full))).toBe(true);
    expect(readSegmentState(patchedDir, 'cards', patched.sha256)).toEqual(readSegmentState(fullDir, 'cards', full.sha256));
    // The changed prices are in it.
    const lines = gunzipSync(bytesOf(patchedDir, patched)).toString().split('\n').slice(0, -1).map((l) => JSON.parse(l));
    expect(lines).toHaveLength(CARDS);
    expect(lines[5].marketCents).toBe(7005);
    expect(lines[6].marketCents).toBe(106);
  });

  it('when changes are dense (touched segments side by side, first and last lines changed) then the file is still a full build\'s', async () => {
    const s = await scenario((n) => n % 4 === 0 || n % 7 === 3);
    const patch = documentPatch('cards', s.prevIndex, s.packsDir, s.changed).patch!;
    const plan = planDocumentPatch(patch, s.prevFile, s.prevDir)!;
    const planned = plan.write(join(s.root, 'planned.ndjson.gz'));
    expect(planned.inflated).toBe(planned.compressed);
    const fullDir = join(s.root, 'full');
    const full = await buildBulkFile(fullJob(s.packsDir, s.after), fullDir, null, new Map());
    expect(planned.sha256).toBe(full.sha256);
    expect(plan.input).toBe(full.input);
  });

  it('when the base of the patch was read before the changes then the plan is the same; a base of another file is not used', async () => {
    const s = await scenario();
    const patch = documentPatch('cards', s.prevIndex, s.packsDir, s.changed).patch!;
    const base = openPatchBase('cards', s.prevFile, s.prevDir)!;
    expect(base).not.toBeNull();
    const without = planDocumentPatch(patch, s.prevFile, s.prevDir)!;
    const early = planDocumentPatch(patch, s.prevFile, s.prevDir, base)!;
    expect([early.input, early.touched, early.state]).toEqual([without.input, without.touched, without.state]);
    // Made for another file (another SHA-256): ignored, the plan reads its own.
    const stale = { ...base, sha256: '0'.repeat(64), state: { ...base.state, firstKeys: [] } };
    expect(planDocumentPatch(patch, s.prevFile, s.prevDir, stale)!.input).toBe(without.input);
    // The bulk thread reads the base when it starts (`warm`) from the previous snapshot its manifest
    // names, and the file is a full build's, patched (its segment state written again).
    writeFileSync(join(s.prevDir, MANIFEST_FILE), JSON.stringify({ format: MANIFEST_FORMAT, bulk: [s.prevFile] }) + '\n');
    const dir = join(s.root, 'warmed');
    // Started before the new snapshot's folder is known (the compile starts it before the catalog read).
    const bulk = startBulkFiles({ previousDir: s.prevDir, warm: ['cards'] }, 'inline');
    expect(() => bulk.submit(documentPatch('cards', s.prevIndex, s.packsDir, s.changed))).toThrow(/before the snapshot folder is known/);
    bulk.into(dir);
    bulk.submit(documentPatch('cards', s.prevIndex, s.packsDir, s.changed));
    const [warmed] = await bulk.finish();
    const full = await buildBulkFile(fullJob(s.packsDir, s.after), join(s.root, 'full'), null, new Map());
    expect(warmed.sha256).toBe(full.sha256);
    expect(readSegmentState(dir, 'cards', warmed.sha256)).toEqual(early.state);
  });

  it('when nothing changed then the previous file is linked, with its segment state', async () => {
    const s = await scenario();
    const dir = join(s.root, 'same');
    const file = await buildBulkFile(documentPatch('cards', s.prevIndex, s.packsDir, []), dir, s.prevDir, new Map([['cards', s.prevFile]]));
    expect(file).toEqual(s.prevFile);
    expect(readSegmentState(dir, 'cards', file.sha256)).toEqual(readSegmentState(s.prevDir, 'cards', s.prevFile.sha256));
  });

  it('when the previous segment state is missing, stale or the file does not match it then no patch is planned, and the long way gives the same file', async () => {
    const s = await scenario();
    const patch = () => documentPatch('cards', s.prevIndex, s.packsDir, s.changed);
    const fullDir = join(s.root, 'full');
    const full = await buildBulkFile(fullJob(s.packsDir, s.after), fullDir, null, new Map());
    const state = join(s.prevDir, SEGMENT_STATE_FILE);
    const kept = join(s.root, 'state-copy.sqlite');
    copyFileSync(state, kept);

    // Describing another file (its SHA-256 differs).
    expect(planDocumentPatch(patch().patch!, { ...s.prevFile, sha256: 'f'.repeat(64) }, s.prevDir)).toBeNull();
    // A segment's digest missing.
    const db = new Database(state);
    db.prepare("UPDATE bulk_files SET digests = substr(digests, 1, length(digests) - 32) WHERE name = 'cards'").run();
    db.close();
    expect(planDocumentPatch(patch().patch!, s.prevFile, s.prevDir)).toBeNull();
    // Gone.
    rmSync(state);
    expect(planDocumentPatch(patch().patch!, s.prevFile, s.prevDir)).toBeNull();
    const longWay = await buildBulkFile(patch(), join(s.root, 'long'), s.prevDir, new Map([['cards', s.prevFile]]));
    expect(longWay).toEqual(full);
    // The long way records the state, so the next compile can patch again.
    expect(readSegmentState(join(s.root, 'long'), 'cards', longWay.sha256)).toEqual(readSegmentState(fullDir, 'cards', full.sha256));

    // The previous file's bytes changed under its state: not trusted.
    copyFileSync(kept, state);
    const path = join(s.prevDir, s.prevFile.file);
    const bytes = readFileSync(path);
    bytes[bytes.length - 20] ^= 0xff;
    writeFileSync(path, bytes);
    expect(planDocumentPatch(patch().patch!, s.prevFile, s.prevDir)).toBeNull();
  });

  it('when a changed key is not the previous file\'s then no patch is planned and the long way names it', async () => {
    const s = await scenario();
    const stray = { ...s.changed[0], key: 'v1/cards/c99999/30d.json.gz' };
    const changed = [...s.changed, stray];
    expect(planDocumentPatch(documentPatch('cards', s.prevIndex, s.packsDir, changed).patch!, s.prevFile, s.prevDir)).toBeNull();
    expect(() => patchedJob(documentPatch('cards', s.prevIndex, s.packsDir, changed).patch!)).toThrow(/c99999.*has no such object/);
  });
});
