import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCurrentId } from '../../../snapshots/store/pointer.js';
import { retainedSnapshots } from '../../../snapshots/store/retention.js';
import { compiledCatalog } from '../../helpers/compiled-catalog.js';
import { runCli } from '../../helpers/cli.js';

const id = (day: string, time: string, n = 0) => `202611${day}T${time}Z-${String(n).padStart(8, '0')}`;

describe('retainedSnapshots (the prune policy of --keep N --keep-daily D)', () => {
  const hourly = [id('20', '010000'), id('20', '230000'), id('21', '020000'), id('22', '020000'), id('22', '140000'), id('23', '010000'), id('23', '050000')];

  it('--keep N alone keeps the newest N', () => {
    expect(retainedSnapshots(hourly, 2)).toEqual([id('23', '010000'), id('23', '050000')]);
    expect(retainedSnapshots(hourly, { keep: 100 })).toEqual(hourly);
  });

  it('--keep-daily D adds the newest snapshot of each of the last D UTC days, counted from the newest snapshot', () => {
    expect(retainedSnapshots(hourly, { keep: 1, keepDaily: 3 })).toEqual([id('21', '020000'), id('22', '140000'), id('23', '050000')]);
    expect(retainedSnapshots(hourly, { keep: 2, keepDaily: 4 })).toEqual([id('20', '230000'), id('21', '020000'), id('22', '140000'), id('23', '010000'), id('23', '050000')]);
  });

  it('a day without a snapshot counts as a day: it is not replaced by an older one', () => {
    const gap = [id('10', '020000'), id('11', '020000'), id('14', '020000')];
    expect(retainedSnapshots(gap, { keep: 1, keepDaily: 3 })).toEqual([id('14', '020000')]);
    expect(retainedSnapshots(gap, { keep: 1, keepDaily: 4 })).toEqual([id('11', '020000'), id('14', '020000')]);
  });

  it('month and year boundaries are whole UTC days', () => {
    const ids = ['20261230T230000Z-00000000', '20261231T120000Z-00000000', '20270101T000100Z-00000000'];
    expect(retainedSnapshots(ids, { keep: 1, keepDaily: 2 })).toEqual(ids.slice(1));
  });

  it('takes the ids in any order and returns them oldest first; nothing in, nothing out', () => {
    expect(retainedSnapshots([...hourly].reverse(), { keep: 1, keepDaily: 2 })).toEqual([id('22', '140000'), id('23', '050000')]);
    expect(retainedSnapshots([], { keep: 3, keepDaily: 90 })).toEqual([]);
  });

  it('refuses a keep under 1 or a negative keep-daily, naming the option', () => {
    expect(() => retainedSnapshots(hourly, 0)).toThrow(/--keep must be/);
    expect(() => retainedSnapshots(hourly, { keep: 1, keepDaily: -1 })).toThrow(/--keep-daily must be/);
  });
});

describe('catalog compile --keep --keep-daily', () => {
  it('prunes the folder store to the newest N plus one snapshot a day, and collects nothing a kept one uses', async () => {
    const cat = await compiledCatalog(60);
    const first = (await readCurrentId(cat.root))!;
    // Earlier days' snapshots: copies of the compiled one under back-dated ids (a snapshot's folder
    // with its manifest is what the prune sees as complete; the packs are shared).
    const older = [id('01', '020000', 1), id('01', '220000', 2), id('02', '020000', 3), id('03', '020000', 4)];
    for (const o of older) cpSync(join(cat.root, first), join(cat.root, o), { recursive: true });
    const r = await runCli(['compile', '--source', cat.source, '--out', cat.root, '--workers', '1', '--keep', '2', '--keep-daily', '3']);
    expect(r.code, r.stderr).toBe(0);
    const current = (await readCurrentId(cat.root))!;
    const left = readdirSync(cat.root).filter((n) => /^\d{8}T/.test(n)).sort();
    // The newest 2 (first compile, this one) plus the newest of each of the last 3 days: today's
    // (the current one) is already kept, the back-dated days are weeks older, so they all go...
    expect(left).toEqual([first, current].sort());

    // ...unless the days reach back to them: D counts back from the newest snapshot's day.
    for (const o of older) cpSync(join(cat.root, first), join(cat.root, o), { recursive: true });
    const days = Math.round((Date.UTC(Number(current.slice(0, 4)), Number(current.slice(4, 6)) - 1, Number(current.slice(6, 8))) - Date.UTC(2026, 10, 2)) / 86_400_000) + 1;
    const again = await runCli(['compile', '--source', cat.source, '--out', cat.root, '--workers', '1', '--keep', '1', '--keep-daily', String(days)]);
    expect(again.code, again.stderr).toBe(0);
    const now = (await readCurrentId(cat.root))!;
    const kept = readdirSync(cat.root).filter((n) => /^\d{8}T/.test(n)).sort();
    // 11-02 and 11-03 are within the days, 11-01 is not; today's newest is the new current one.
    expect(kept).toEqual([id('02', '020000', 3), id('03', '020000', 4), now]);
    // Every pack a kept manifest lists is still there.
    const packs = new Set(readdirSync(join(cat.root, 'packs')));
    for (const k of kept) {
      const header = JSON.parse(readFileSync(join(cat.root, k, 'manifest.ndjson'), 'utf8').split('\n')[0]) as { packs: { sha256: string }[] };
      for (const p of header.packs) expect(packs.has(`${p.sha256}.pack`), `${k}: ${p.sha256}`).toBe(true);
    }
  }, 60_000);

  it('refuses a negative --keep-daily before compiling, naming the option', async () => {
    const r = await runCli(['compile', '--source', '/nonexistent', '--out', '/tmp/never', '--keep-daily', '-1']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/--keep-daily must be between 0/);
  });
});
