/**
 * The search index builder on its own thread. The worker entry only exists compiled, so these tests
 * load the build in dist/ (the CLI tests do the same): `npx tsc -p tsconfig.json` first.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchIndexBuilder } from '../../compiler/search/index-builder.js';
import type { BackgroundSearchIndexBuilder } from '../../compiler/search/background-builder.js';
import type { SearchEntry } from '../../compiler/search/entry.js';
import type { SearchIndexBuilderOptions } from '../../compiler/search/index-builder.js';
import { card, figure, set } from './fixture.js';

type Factory = (path: string, options?: SearchIndexBuilderOptions) => BackgroundSearchIndexBuilder;
let createBackground: Factory;
let dir: string;
beforeAll(async () => {
  const compiled = join(process.cwd(), 'dist/compiler/search/background-builder.js');
  expect(existsSync(join(process.cwd(), 'dist/compiler/search/search-worker.js')), 'run npx tsc -p tsconfig.json first').toBe(true);
  createBackground = ((await import(compiled)) as { createBackgroundSearchIndexBuilder: Factory }).createBackgroundSearchIndexBuilder;
  dir = mkdtempSync(join(tmpdir(), 'search-background-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const entries = (): SearchEntry[] => [
  ...Array.from({ length: 4500 }, (_, i) => card(`id-${i}`, 'mtg', `Name ${i % 13}`, i % 17)),
  figure('f', 'Figure', 1),
  set('s', 'mtg', 'Set', 50),
];

describe('background search index builder', () => {
  it('when built on the worker thread then the file is byte-identical to the one built inline', async () => {
    const inline = join(dir, 'inline.sqlite');
    const b = createSearchIndexBuilder(inline, { asOf: '2026-11-20' });
    for (const e of entries()) b.add(e);
    b.finish();
    const threaded = join(dir, 'threaded.sqlite');
    const t = createBackground(threaded, { asOf: '2026-11-20' });
    for (const e of entries()) t.add(e);
    await t.finish();
    expect(readFileSync(threaded).equals(readFileSync(inline))).toBe(true);
  });

  it('when an entry is invalid then finish rejects with the builder error (code internal) and no file is left', async () => {
    const path = join(dir, 'bad.sqlite');
    const t = createBackground(path);
    t.add(card('ok', 'mtg', 'Fine', 1));
    t.add({ ...card('bad', 'mtg', 'Bad', 1), popularity: Number.NaN });
    await expect(t.finish()).rejects.toMatchObject({ name: 'CatalogError', code: 'internal', message: expect.stringMatching(/popularity/) });
    expect(existsSync(path)).toBe(false);
  });

  it('when a caller adds only while there is room then no more than 8 batches wait, and ready() lets it go on', async () => {
    const path = join(dir, 'bounded.sqlite');
    const t = createBackground(path, { asOf: '2026-11-20' });
    // Synchronously, without ever awaiting: room runs out once 8 batches of 2,000 wait (more are
    // added only if the thread finished some meanwhile), in whole batches.
    let added = 0;
    while (t.room()) t.add(card(`id-${added}`, 'mtg', `Name ${added++ % 13}`, 1));
    expect(added).toBeGreaterThanOrEqual(8 * 2_000);
    expect(added).toBeLessThan(50_000);
    expect(added % 2_000).toBe(0);
    // The rest of 50,000 as a caller with nothing else to do adds them; every one reaches the file.
    while (added < 50_000) {
      await t.ready();
      expect(t.room()).toBe(true);
      let n = 0;
      while (t.room() && n++ < 2_000 && added < 50_000) t.add(card(`id-${added}`, 'mtg', `Name ${added++ % 13}`, 1));
    }
    await t.finish();
    const inline = join(dir, 'bounded-inline.sqlite');
    const b = createSearchIndexBuilder(inline, { asOf: '2026-11-20' });
    for (let i = 0; i < 50_000; i++) b.add(card(`id-${i}`, 'mtg', `Name ${i % 13}`, 1));
    b.finish();
    expect(readFileSync(path).equals(readFileSync(inline))).toBe(true);
  });

  it('when a batch fails then ready() does not wait for it and rejects with its error', async () => {
    const t = createBackground(join(dir, 'bad-ready.sqlite'));
    t.add({ ...card('bad', 'mtg', 'Bad', 1), popularity: Number.NaN });
    let added = 1;
    while (t.room()) t.add(card(`id-${added}`, 'mtg', 'Name', added++));
    await expect(t.ready()).rejects.toMatchObject({ code: 'internal', message: expect.stringMatching(/popularity/) });
    await t.abort();
  });

  it('when aborted then the partial file is removed', async () => {
    const path = join(dir, 'aborted.sqlite');
    const t = createBackground(path);
    for (const e of entries()) t.add(e);
    await t.abort();
    expect(existsSync(path)).toBe(false);
  });
});
