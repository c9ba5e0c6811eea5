/**
 * compile/stored-catalog.ts: what is stored comes back equal to what the load made, and nothing that
 * is not a whole state file of the same catalog files is ever taken.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../../helpers/cli.js';
import { loadCatalog, openSource, type LoadedCatalog } from '../../../compiler/source/index.js';
import { catalogFilesHash, localCatalogFiles, statCatalogFiles } from '../../../compiler/source/files-hash.js';
import {
  CATALOG_STATE_FILE, catalogFor, keepCatalogState, READ_AHEAD_FRAMES, readStoredCatalog, writeStoredCatalog, type ReadElsewhere,
} from '../../../compiler/compile/stored-catalog.js';
import { createFrameWriter, readFrameHeader, readFrames } from '../../../compiler/compile/framed-file.js';
import { startReadAhead } from '../../../compiler/compile/read-ahead.js';
import { silentProgress } from '../../../compiler/compile/progress.js';
import { switchCurrent } from '../../../snapshots/store/pointer.js';

let dir: string;
let loaded: LoadedCatalog;
let filesHash: string;

/** Everything a compile reads of a loaded catalog, as plain values. */
function plain(c: LoadedCatalog) {
  return {
    meta: c.meta,
    sets: c.sets,
    setsByKey: [...c.setsByKey],
    cards: [...c.cards],
    figureSeries: [...c.figureSeries],
    figures: [...c.figures],
    fxRates: c.fxRates,
    users: [...c.users],
    publishedBinders: [...c.publishedBinders],
    activity: [...c.activity],
    pullObservations: [...c.pullObservations],
    rejects: c.rejects.list(),
    rejected: [...c.rejected],
  };
}

beforeAll(async () => {
  dir = join(tempDir(), 'catalog');
  const r = await runCli(['generate', '--out', dir, '--cards', '400', '--seed', '5']);
  expect(r.code, r.stderr).toBe(0);
  // One tolerated bad record, so the rejects and the rejected identities are stored too.
  appendFileSync(join(dir, 'sets.ndjson'), '{"game":"mtg","code":"zz1"}\n');
  const source = openSource(dir);
  try {
    loaded = await loadCatalog(source, { maxRejects: 5 });
    filesHash = (await catalogFilesHash(source))!;
  } finally {
    await source.close();
  }
  expect(loaded.rejects.count).toBe(1);
  expect(loaded.publishedBinders.length).toBeGreaterThan(0);
});

describe('stored catalog', () => {
  it('when written and read with the same files hash then every part equals the loaded catalog, in the same order', () => {
    const path = join(tempDir(), 'catalog.state');
    writeStoredCatalog(path, loaded, filesHash);
    const back = readStoredCatalog(path, filesHash, 5);
    expect(back).not.toBeNull();
    expect(plain(back!)).toEqual(plain(loaded));
    expect(back!.rejects.maxRejects).toBe(5);
    // Accented names are among what came back equal.
    expect([...loaded.cards.values()].some((c) => /[^\x00-\x7f]/.test(c.name))).toBe(true);
    // A walk of a record log can be repeated, as the aggregates do.
    expect([...back!.publishedBinders]).toEqual([...loaded.publishedBinders]);
  });

  it('when records hold newlines, brackets, commas, astral characters or more text than a piece then cards and figures come back equal', () => {
    const odd = ['Line one\nline two', 'Close ],[ open', 'Emoji \u{1F409} and \u0141\u00f3d\u017a', 'x'.repeat(50_000)];
    const cards = new Map(loaded.cards);
    [...cards.keys()].slice(0, odd.length).forEach((id, i) => cards.set(id, { ...cards.get(id)!, name: odd[i], artist: odd[odd.length - 1 - i] }));
    const figures = new Map(loaded.figures);
    expect(figures.size).toBeGreaterThan(0);
    [...figures.keys()].slice(0, odd.length).forEach((id, i) => figures.set(id, { ...figures.get(id)!, name: odd[i] }));
    const catalog: LoadedCatalog = { ...loaded, cards, figures };
    const path = join(tempDir(), 'catalog.state');
    writeStoredCatalog(path, catalog, filesHash);
    // The cards are one frame of columns (card-slices.ts); the figures' frame is JSON pieces, one per
    // line: no newline of a name is written as a byte.
    const frames = readFrames(path, () => true)!;
    const head = frames[0] as { cardFrames: number; figureFrames: number };
    expect([head.cardFrames, head.figureFrames]).toEqual([1, 1]);
    const figureFrame = Buffer.from(frames[2] as Uint8Array);
    const pieces = figureFrame.toString('utf8').split('\n');
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(Array.isArray(JSON.parse(piece))).toBe(true);
    const back = readStoredCatalog(path, filesHash, 5);
    expect(back).not.toBeNull();
    expect(plain(back!)).toEqual(plain(catalog));
  });

  it('when a card frame is damaged inside (its hash made to match) then the stored catalog is not taken', () => {
    const path = join(tempDir(), 'catalog.state');
    writeStoredCatalog(path, loaded, filesHash);
    const frames = readFrames(path, () => true)!;
    const cardFrame = Buffer.from(frames[1] as Uint8Array);
    // The first card's first code (its game) pointed past every string.
    cardFrame.writeUInt32LE(0xffffff, 32);
    const writer = createFrameWriter(path);
    writer.add(frames[0]);
    writer.add(cardFrame);
    for (const frame of frames.slice(2)) writer.add(frame);
    writer.finish(readFrameHeader(path)!);
    expect(readFrames(path, () => true)).not.toBeNull();
    expect(readStoredCatalog(path, filesHash, 5)).toBeNull();
  });

  it('when a card frame comes twice (the head counting it, its hash made to match) then the stored catalog is not taken', () => {
    const path = join(tempDir(), 'catalog.state');
    writeStoredCatalog(path, loaded, filesHash);
    const frames = readFrames(path, () => true)!;
    const head = frames[0] as { cardFrames: number };
    expect(head.cardFrames).toBe(1);
    // Every card of the second copy has an id the first already holds.
    const writer = createFrameWriter(path);
    writer.add({ ...head, cardFrames: 2 });
    writer.add(frames[1]);
    writer.add(frames[1]);
    for (const frame of frames.slice(2)) writer.add(frame);
    writer.finish(readFrameHeader(path)!);
    expect(readFrames(path, () => true)).not.toBeNull();
    expect(readStoredCatalog(path, filesHash, 5)).toBeNull();
  });

  it('when its rejects exceed the new --max-rejects then reading it fails as the load would', async () => {
    const path = join(tempDir(), 'catalog.state');
    writeStoredCatalog(path, loaded, filesHash);
    let loadError: unknown;
    const source = openSource(dir);
    try {
      await loadCatalog(source, { maxRejects: 0 });
    } catch (err) {
      loadError = err;
    } finally {
      await source.close();
    }
    expect(() => readStoredCatalog(path, filesHash, 0)).toThrow((loadError as Error).message);
  });

  it('when the files hash differs, or the file is missing, foreign, damaged, cut short or longer, then nothing is taken', () => {
    const path = join(tempDir(), 'catalog.state');
    expect(readStoredCatalog(path, filesHash, 5)).toBeNull();
    writeStoredCatalog(path, loaded, filesHash);
    const whole = readFileSync(path);
    const changed = Buffer.from(whole);
    changed[whole.length - 100] ^= 0xff;
    expect(readStoredCatalog(path, `${filesHash.slice(0, -1)}0`, 5)).toBeNull();
    const variants: [string, Buffer][] = [
      ['foreign', Buffer.from('{"format":"something else"}\n')],
      ['no header line', Buffer.alloc(10_000, 0x41)],
      ['a byte changed', changed],
      ['cut short', whole.subarray(0, whole.length - 1)],
      ['longer', Buffer.concat([whole, Buffer.from([0])])],
    ];
    for (const [what, bytes] of variants) {
      writeFileSync(path, bytes);
      expect(readStoredCatalog(path, filesHash, 5), what).toBeNull();
    }
    writeFileSync(path, whole);
    expect(readStoredCatalog(path, filesHash, 5)).not.toBeNull();
  });

  it('when any catalog file but prices changes then the files hash changes; a change to prices leaves it', async () => {
    const hashOf = async () => {
      const source = openSource(dir);
      try {
        return await catalogFilesHash(source);
      } finally {
        await source.close();
      }
    };
    appendFileSync(join(dir, 'prices.ndjson'), '\n');
    expect(await hashOf()).toBe(filesHash);
    for (const file of ['meta.json', 'cards.ndjson', 'fx-rates.ndjson', 'pull-observations.ndjson']) {
      const bytes = readFileSync(join(dir, file));
      writeFileSync(join(dir, file), Buffer.concat([bytes, Buffer.from(' ')]));
      expect(await hashOf(), file).not.toBe(filesHash);
      writeFileSync(join(dir, file), bytes);
    }
    expect(await hashOf()).toBe(filesHash);
  });
});

describe('catalogFor: the stored catalog read and hashed on a thread while it is parsed', () => {
  /** catalogFor of `catalogDir` into `root`, with the read-ahead thread's hashes (counted) and a load (counted). */
  async function taken(catalogDir: string, root: string, mode: 'worker' | 'inline', minFrames = 1) {
    const ahead = startReadAhead(mode);
    const source = openSource(catalogDir);
    let hashed = 0;
    let loads = 0;
    // The thread as the compile uses it, counting the stored catalogs it was asked to read.
    const elsewhere: ReadElsewhere = {
      openFrames: (...args) => {
        hashed++;
        return ahead.openFrames(...args);
      },
      nextFrame: () => ahead.nextFrame(),
      filesHash: (files) => ahead.filesHash(files),
    };
    try {
      // Read on the thread whatever its number of frames unless told (a compile does from READ_AHEAD_FRAMES).
      const r = await catalogFor(source, root, 5, silentProgress, async () => {
        loads++;
        return loadCatalog(source, { maxRejects: 5 });
      }, elsewhere, minFrames);
      return { ...r, hashed, loads, stat: statCatalogFiles((await localCatalogFiles(source))!) };
    } finally {
      await source.close();
      await ahead.close();
    }
  }
  /** A root whose current snapshot `id` holds the catalog stored with the files' stat as they are now. */
  const published = async (root: string, id: string) => {
    const source = openSource(dir);
    try {
      mkdirSync(join(root, id), { recursive: true });
      const path = join(root, id, CATALOG_STATE_FILE);
      writeStoredCatalog(path, loaded, filesHash, statCatalogFiles((await localCatalogFiles(source))!));
      await switchCurrent(root, id);
      return path;
    } finally {
      await source.close();
    }
  };
  const FIRST = '20261129T000000Z-00000001';
  const SECOND = '20261129T000001Z-00000002';

  it('when the files are untouched then it is read on the thread and parsed here, and taken once both hashes agree', async () => {
    const root = tempDir();
    const state = await published(root, FIRST);
    for (const mode of ['worker', 'inline'] as const) {
      const r = await taken(dir, root, mode);
      expect([r.hashed, r.loads], mode).toEqual([1, 0]);
      expect(plain(r.catalog)).toEqual(plain(loaded));
      expect(r.state).toMatchObject({ filesHash, keptFrom: state, stat: r.stat, keptStat: r.stat });
    }
  });

  it('when the stored catalog has fewer frames than READ_AHEAD_FRAMES then this thread reads it, as before', async () => {
    const root = tempDir();
    const state = await published(root, FIRST);
    expect(readFrameHeader(state)!.frames).toBeLessThan(READ_AHEAD_FRAMES);
    const r = await taken(dir, root, 'worker', READ_AHEAD_FRAMES);
    expect([r.hashed, r.loads]).toEqual([0, 0]);
    expect(plain(r.catalog)).toEqual(plain(loaded));
    expect(r.state).toMatchObject({ filesHash, keptFrom: state, stat: r.stat, keptStat: r.stat });
  });

  it('when the state file is damaged under untouched files then the decoded catalog is dropped and the files are loaded', async () => {
    const root = tempDir();
    const state = await published(root, FIRST);
    const whole = readFileSync(state);
    const changed = Buffer.from(whole);
    changed[whole.length - 100] ^= 0x01;
    writeFileSync(state, changed);
    // Written in place: a new change time for the state file, none for the catalog files.
    const r = await taken(dir, root, 'worker');
    expect([r.hashed, r.loads]).toEqual([1, 1]);
    expect(plain(r.catalog)).toEqual(plain(loaded));
    expect(r.state).toMatchObject({ filesHash, keptFrom: null });
  });

  it('when the files are written again with the same bytes then they are hashed first, and the next compile keeps a copy stamped with their new stat', async () => {
    const root = tempDir();
    const first = await published(root, FIRST);
    for (const file of ['cards.ndjson', 'meta.json']) writeFileSync(join(dir, file), readFileSync(join(dir, file)));
    const r = await taken(dir, root, 'worker');
    expect([r.hashed, r.loads]).toEqual([0, 0]);
    expect(plain(r.catalog)).toEqual(plain(loaded));
    expect(r.state.keptFrom).toBe(first);
    expect(r.state.keptStat).not.toBe(r.stat);
    // What the compile does with that state: a copy with the new stat in its header, not a link.
    mkdirSync(join(root, SECOND));
    keepCatalogState(join(root, SECOND), r.catalog, r.state);
    const kept = join(root, SECOND, CATALOG_STATE_FILE);
    expect(statSync(kept).ino).not.toBe(statSync(first).ino);
    expect(readFrameHeader(kept)).toMatchObject({ ...readFrameHeader(first), stat: r.stat });
    expect(readStoredCatalog(kept, filesHash, 5)).not.toBeNull();
    // With that snapshot current, the next compile decodes while it hashes again.
    await switchCurrent(root, SECOND);
    const again = await taken(dir, root, 'worker');
    expect([again.hashed, again.loads]).toEqual([1, 0]);
    expect(again.state).toMatchObject({ keptFrom: kept, stat: r.stat, keptStat: r.stat });
    expect(plain(again.catalog)).toEqual(plain(loaded));
  });
});
