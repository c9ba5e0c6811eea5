/**
 * A small, valid, hand-written catalog, written to a temp folder. Tests override one file at a
 * time: objects are written as JSON lines, strings verbatim (for broken lines), null leaves the
 * file out.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { META_FILE, SOURCE_FILES, type SourceKind } from '../../../snapshots/records.js';

export type FixtureLines = (object | string)[] | null;
export type FixtureOverrides = Partial<Record<SourceKind, FixtureLines>> & { meta?: object | string | null };

export const ASOF = '2026-11-20';

export const card = (id: string, extra: object = {}): object => ({
  id,
  game: 'mtg',
  setCode: 'lea',
  name: `Card ${id}`,
  number: '1',
  rarity: 'common',
  artist: 'Christopher Rush',
  oracleId: null,
  imageUrl: null,
  releasedAt: '1993-08-05',
  addedAt: '2020-01-01',
  watchers: 1,
  ...extra,
});

export function baseCatalog(): Record<SourceKind, object[]> & { meta: object } {
  return {
    meta: { formatVersion: 1, asOf: ASOF },
    sets: [
      { game: 'mtg', code: 'lea', name: 'Limited Edition Alpha', releasedAt: '1993-08-05', series: 'Core', printedTotal: 295 },
      { game: 'pokemon', code: 'base1', name: 'Base Set', releasedAt: '1999-01-09', series: null, printedTotal: 102 },
    ],
    cards: [
      card('mtg-lea-161', { name: 'Lightning Bolt', number: '161', oracleId: '4457ed35-7c10-48c8-9776-456485fdf070', watchers: 900 }),
      card('mtg-lea-1', { name: 'Animate Wall', imageUrl: 'https://img.example/lea/1.jpg' }),
      card('base1-4', { game: 'pokemon', setCode: 'base1', name: 'Charizard', number: '4', rarity: 'Rare Holo', artist: 'Mitsuhiro Arita' }),
    ],
    figureSeries: [{ id: 's1', name: 'Series One', manufacturer: 'Pop Mart', releasedAt: '2024-03-01' }],
    figures: [
      { id: 'f1', seriesId: 's1', name: 'Figure One', rarity: 'common', imageUrl: null, releasedAt: '2024-03-01', addedAt: '2024-03-02', watchers: 5 },
      { id: 'f2', seriesId: 's1', name: 'Figure Secret', rarity: 'secret', imageUrl: null, releasedAt: '2024-03-01', addedAt: '2024-03-02', watchers: 50 },
    ],
    fxRates: [
      { date: '2026-11-20', currency: 'GBP', perUsd: 0.79, source: 'ECB' },
      { date: '2026-11-19', currency: 'GBP', perUsd: 0.78, source: 'ECB' },
      { date: '2026-11-19', currency: 'EUR', perUsd: 0.92, source: 'ECB' },
    ],
    users: [
      { id: 'u1', handle: 'alice', displayName: 'Alice', showcase: true, anonymous: false, joinedAt: '2023-01-01' },
      { id: 'u2', handle: null, displayName: null, showcase: false, anonymous: true, joinedAt: '2023-02-01T10:00:00.000Z' },
    ],
    binders: [
      {
        id: 'b1',
        userId: 'u1',
        name: 'Bolts',
        public: true,
        items: [{ entity: 'card', id: 'mtg-lea-161' }, { entity: 'figure', id: 'f1' }],
        updatedAt: '2026-11-01T12:00:00.000Z',
      },
    ],
    activity: [
      { id: 'a1', userId: 'u1', type: 'pull', entity: 'figure', entityId: 'f1', at: '2026-11-02T08:00:00.000Z' },
      { id: 'a2', userId: null, type: 'binder_add', entity: 'card', entityId: 'base1-4', at: '2026-11-03T09:30:00.000Z' },
    ],
    pullObservations: [{ id: 'p1', seriesId: 's1', userId: 'u2', observedAt: '2026-10-01', boxes: 10, pulls: { f1: 3, f2: 1 } }],
    prices: [
      { entity: 'card', id: 'mtg-lea-161', start: '2026-11-18', usdCents: [100, null, 120] },
      { entity: 'figure', id: 'f1', start: '2026-11-20', usdCents: [500] },
    ],
  };
}

const tempDirs: string[] = [];

export function makeTempDir(prefix = 'source-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** For afterAll: removes every folder makeTempDir made in this test file. */
export function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** Writes the base catalog with overrides into a new temp folder and returns it. */
export function writeCatalog(overrides: FixtureOverrides = {}, dir: string = makeTempDir()): string {
  const files = { ...baseCatalog(), ...overrides };
  if (files.meta !== null) {
    const meta = files.meta;
    fs.writeFileSync(path.join(dir, META_FILE), typeof meta === 'string' ? meta : JSON.stringify(meta));
  }
  for (const [kind, file] of Object.entries(SOURCE_FILES) as [SourceKind, string][]) {
    const lines = files[kind];
    if (lines === null) continue;
    const text = lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n');
    fs.writeFileSync(path.join(dir, file), lines.length === 0 ? '' : `${text}\n`);
  }
  return dir;
}
