/**
 * The packed write path of the compile (compiler/compile/pack-output.ts, object-table.ts): an
 * unchanged object keeps its pack and offset, a pack that is mostly garbage has its live objects
 * copied into the new pack and is collected once no kept snapshot uses it, and every object of every
 * kept snapshot still reads back with the SHA-256 its index records.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileSnapshot } from '../../../compiler/compile/index.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { currentId, indexEntries, manifestHeader, storedObjects } from '../../helpers/snapshot-files.js';

let catalog: string;

beforeAll(async () => {
  catalog = join(tempDir(), 'catalog');
  expect((await runCli(['generate', '--out', catalog, '--cards', '400', '--seed', '5'])).code).toBe(0);
}, 120_000);

/** Adds one cent to the last price of `share` of the card series (the first ones in the file). */
function bumpPrices(share: number): void {
  const path = join(catalog, 'prices.ndjson');
  const lines = readFileSync(path, 'utf8').split('\n');
  const cards = lines.filter((l) => l.includes('"entity":"card"')).length;
  let left = Math.ceil(cards * share);
  const out = lines.map((l) => {
    if (left === 0 || !l.includes('"entity":"card"')) return l;
    left--;
    const rec = JSON.parse(l);
    rec.usdCents[rec.usdCents.length - 1] += 1;
    return JSON.stringify(rec);
  });
  writeFileSync(path, out.join('\n'));
}

const notesOf = () => {
  const notes: string[] = [];
  return { notes, progress: { phase() {}, advance() {}, note: (line: string) => notes.push(line) } };
};

function expectWhole(root: string, id: string): void {
  let n = 0;
  for (const { key, bytes } of storedObjects(root, id)) {
    const want = indexEntries(root, id)!.find((e) => e.key === key)!.sha256;
    expect(createHash('sha256').update(bytes).digest('hex'), key).toBe(want);
    n++;
  }
  expect(n).toBe(manifestHeader(root, id).objects);
}

describe('packed compile', () => {
  it('when nothing changed then every index row points at the same pack and offset, and no pack is written', async () => {
    const root = tempDir();
    await compileSnapshot({ source: catalog, out: root, threads: 'inline', workers: 0 });
    const first = currentId(root)!;
    const packsBefore = readdirSync(join(root, 'packs')).sort();
    await compileSnapshot({ source: catalog, out: root, threads: 'inline', workers: 0 });
    const second = currentId(root)!;
    expect(second).not.toBe(first);
    expect(readdirSync(join(root, 'packs')).sort()).toEqual(packsBefore);
    const at = (id: string) => indexEntries(root, id)!.map((e) => `${e.key} ${e.pack} ${e.offset}`);
    expect(at(second)).toEqual(at(first));
  }, 120_000);

  it('when most objects of a pack are replaced then its live objects move to the new pack and the old pack goes with the last snapshot that used it', async () => {
    const root = tempDir();
    // Small packs: the entity objects span several, so one can become sparse on its own.
    const packBytes = 64 * 1024;
    await compileSnapshot({ source: catalog, out: root, threads: 'inline', workers: 0, packBytes, keep: 1 });
    const firstPacks = new Set(manifestHeader(root).packs.map((p: { sha256: string }) => p.sha256));
    bumpPrices(0.8);
    const { notes, progress } = notesOf();
    await compileSnapshot({ source: catalog, out: root, threads: 'inline', workers: 0, packBytes, keep: 1, progress });
    expect(notes.some((n) => /rewrote the live objects of \d+ sparse pack/.test(n))).toBe(true);
    const id = currentId(root)!;
    const used = new Set(indexEntries(root, id)!.map((e) => e.pack));
    const kept = [...firstPacks].filter((p) => used.has(p));
    // A first-compile pack still in use is one more than half alive; every sparse one is gone from disk.
    expect(kept.length).toBeLessThan(firstPacks.size);
    const onDisk = new Set(readdirSync(join(root, 'packs')).map((n) => n.replace(/\.pack$/, '')));
    for (const p of firstPacks) expect(onDisk.has(p)).toBe(used.has(p));
    expectWhole(root, id);
  }, 120_000);
});
