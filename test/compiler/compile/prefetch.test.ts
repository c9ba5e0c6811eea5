/**
 * The background copies an incremental compile starts from (compile/prefetch.ts), on real files.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { PREFETCH_DIR, startPrefetch } from '../../../compiler/compile/prefetch.js';
import { tempDir } from '../../helpers/cli.js';

describe('startPrefetch', () => {
  it('when a copy is started and taken then the file is moved to its place with the same bytes, and nothing is left in the root', async () => {
    const root = tempDir();
    const from = join(root, 'previous.sqlite');
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    writeFileSync(from, bytes);
    const prefetch = startPrefetch(root);
    prefetch.start('objects.sqlite', from);
    mkdirSync(join(root, 'snap'));
    const to = join(root, 'snap', 'objects.sqlite');
    expect(await prefetch.take('objects.sqlite', to)).toBe(true);
    expect(readFileSync(to).equals(bytes)).toBe(true);
    // Taken once: a second take finds none, as does one never started.
    expect(await prefetch.take('objects.sqlite', to)).toBe(false);
    expect(await prefetch.take('search.sqlite', join(root, 'snap', 'search.sqlite'))).toBe(false);
    await prefetch.close();
    expect(existsSync(join(root, PREFETCH_DIR))).toBe(false);
    expect(readFileSync(from).equals(bytes)).toBe(true);
  });

  it('when a copy is not taken then close waits for it and removes it', async () => {
    const root = tempDir();
    const from = join(root, 'previous.sqlite');
    writeFileSync(from, randomBytes(1024 * 1024));
    const prefetch = startPrefetch(root);
    prefetch.start('search.sqlite', from);
    await prefetch.close();
    expect(existsSync(join(root, PREFETCH_DIR))).toBe(false);
  });

  it('when the file to copy is missing then take throws the copy\'s error and close still cleans up', async () => {
    const root = tempDir();
    const prefetch = startPrefetch(root);
    prefetch.start('objects.sqlite', join(root, 'missing.sqlite'));
    // Nothing unhandled meanwhile: the failure is only seen by take.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(prefetch.take('objects.sqlite', join(root, 'objects.sqlite'))).rejects.toThrow(/ENOENT/);
    expect(existsSync(join(root, 'objects.sqlite'))).toBe(false);
    await prefetch.close();
    expect(existsSync(join(root, PREFETCH_DIR))).toBe(false);
  });

  it('when a killed compile left copies behind then starting empties the folder', async () => {
    const root = tempDir();
    mkdirSync(join(root, PREFETCH_DIR));
    writeFileSync(join(root, PREFETCH_DIR, 'objects.sqlite'), 'cut short');
    const prefetch = startPrefetch(root);
    expect(existsSync(join(root, PREFETCH_DIR))).toBe(false);
    expect(() => prefetch.start('x', join(root, 'a'))).not.toThrow();
    expect(() => prefetch.start('x', join(root, 'a'))).toThrow(/started twice/);
    await prefetch.close();
  });
});
