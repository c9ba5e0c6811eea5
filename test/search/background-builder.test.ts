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

  it('when aborted then the partial file is removed', async () => {
    const path = join(dir, 'aborted.sqlite');
    const t = createBackground(path);
    for (const e of entries()) t.add(e);
    await t.abort();
    expect(existsSync(path)).toBe(false);
  });
});
