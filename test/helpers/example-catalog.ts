/**
 * The catalog the OpenAPI examples come from (proxy/openapi/examples.ts EXAMPLE_CATALOG), generated
 * and compiled with the real `catalog` binary into a temp folder, signed with the example key (so the
 * signature and public-key routes have something to answer), then compiled again after the example's
 * one price change, so the current snapshot has a `previous` and `changes?since=` lists real keys.
 * The same steps as scripts/openapi.mjs.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleSigningKeys } from '../../proxy/openapi/example-signing-key.js';
import { applyExamplePriceChange } from '../../proxy/openapi/example-price-change.js';
import { EXAMPLE_CATALOG } from '../../proxy/openapi/examples.js';
import { runCli, tempDir } from './cli.js';

export interface CompiledCatalog {
  /** Snapshot root (holds `current` and the snapshot before the price change). */
  root: string;
  /** The generated catalog it was compiled from. */
  source: string;
  cleanup(): void;
}

export async function compileExampleCatalog(): Promise<CompiledCatalog> {
  const dir = tempDir('catalog-openapi-');
  const source = join(dir, 'catalog');
  const root = join(dir, 'snapshots');
  const signKey = join(dir, 'example-signing-key.pem');
  writeFileSync(signKey, exampleSigningKeys().privatePem, { mode: 0o600 });
  const cli = async (args: string[]) => {
    const run = await runCli(args);
    if (run.code !== 0) throw new Error(`catalog ${args[0]} failed: ${run.stderr}`);
  };
  const compile = ['compile', '--source', source, '--out', root, '--workers', '1', '--sign-key', signKey];
  await cli(['generate', '--out', source, '--cards', String(EXAMPLE_CATALOG.cards), '--seed', String(EXAMPLE_CATALOG.seed)]);
  await cli(compile);
  applyExamplePriceChange(source);
  await cli(compile);
  return { root, source, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
