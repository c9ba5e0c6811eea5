/**
 * The catalog the OpenAPI examples come from (proxy/openapi/examples.ts EXAMPLE_CATALOG), generated
 * and compiled with the real `catalog` binary into a temp folder, signed with the example key (so the
 * signature and public-key routes have something to answer).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleSigningKeys } from '../../proxy/openapi/example-signing-key.js';
import { EXAMPLE_CATALOG } from '../../proxy/openapi/examples.js';
import { runCli, tempDir } from './cli.js';

export interface CompiledCatalog {
  /** Snapshot root (holds `current`). */
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
  for (const args of [
    ['generate', '--out', source, '--cards', String(EXAMPLE_CATALOG.cards), '--seed', String(EXAMPLE_CATALOG.seed)],
    ['compile', '--source', source, '--out', root, '--workers', '1', '--sign-key', signKey],
  ]) {
    const run = await runCli(args);
    if (run.code !== 0) throw new Error(`catalog ${args[0]} failed: ${run.stderr}`);
  }
  return { root, source, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
