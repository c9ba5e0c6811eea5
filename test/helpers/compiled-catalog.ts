/**
 * A small real catalog for the reliability suites: `catalog generate` (300 cards, fixed seed) then
 * `catalog compile` through the real binary, so routes answer from real documents and a real FTS5
 * index, and users of all three kinds (opted in, not opted in, anonymous) exist. About 2 s.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './cli.js';

export interface CompiledCatalog {
  /** The generated source catalog. */
  source: string;
  /** The snapshot root (`current` points at the compiled snapshot). */
  root: string;
  users: { id: string; handle: string | null; displayName: string | null; showcase: boolean; anonymous: boolean }[];
  /** Ids of some cards, sets and figures of the catalog, for building valid paths. */
  cardIds: string[];
  sets: { game: string; code: string }[];
  figureIds: string[];
  seriesIds: string[];
}

const ndjson = <T>(path: string): T[] => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);

export async function compiledCatalog(cards = 300): Promise<CompiledCatalog> {
  const dir = tempDir('catalog-compiled-');
  const source = join(dir, 'catalog');
  const root = join(dir, 'snapshots');
  const generated = await runCli(['generate', '--out', source, '--cards', String(cards), '--seed', '5']);
  if (generated.code !== 0) throw new Error(`generate failed: ${generated.stderr}`);
  const compiled = await runCli(['compile', '--source', source, '--out', root, '--workers', '1']);
  if (compiled.code !== 0) throw new Error(`compile failed: ${compiled.stderr}`);
  return {
    source,
    root,
    users: ndjson(join(source, 'users.ndjson')),
    cardIds: ndjson<{ id: string }>(join(source, 'cards.ndjson')).slice(0, 20).map((c) => c.id),
    sets: ndjson<{ game: string; code: string }>(join(source, 'sets.ndjson')).map((s) => ({ game: s.game, code: s.code })),
    figureIds: ndjson<{ id: string }>(join(source, 'figures.ndjson')).slice(0, 10).map((f) => f.id),
    seriesIds: ndjson<{ id: string }>(join(source, 'figure-series.ndjson')).map((s) => s.id),
  };
}
