/** Reading back what an import wrote, and checking it the way `catalog compile` does. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalog, openSource, streamPrices, type LoadedCatalog } from '../../compiler/source/index.js';

export function readNdjson<T = Record<string, unknown>>(dir: string, file: string): T[] {
  const text = readFileSync(join(dir, file), 'utf8');
  return text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as T);
}

/** Loads the folder with the compiler's reader and no tolerated rejects: throws if any record is bad. */
export async function compileCheck(dir: string): Promise<{ catalog: LoadedCatalog; prices: number; rejects: number }> {
  const source = openSource(dir);
  try {
    const catalog = await loadCatalog(source, { maxRejects: 0 });
    let prices = 0;
    for await (const _ of streamPrices(source, catalog)) prices += 1;
    return { catalog, prices, rejects: catalog.rejects.finish().length };
  } finally {
    await source.close();
  }
}
