/**
 * compile/stored-catalog.ts: what is stored comes back equal to what the load made, and nothing that
 * is not a whole state file of the same catalog files is ever taken.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../../helpers/cli.js';
import { loadCatalog, openSource, type LoadedCatalog } from '../../../compiler/source/index.js';
import { catalogFilesHash } from '../../../compiler/source/files-hash.js';
import { readStoredCatalog, writeStoredCatalog } from '../../../compiler/compile/stored-catalog.js';

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
