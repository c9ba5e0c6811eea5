#!/usr/bin/env node
/**
 * Regenerates the OpenAPI examples and docs/openapi.json (`npm run openapi`, which builds first and
 * after). Generates the example catalog with the real CLI, compiles it, changes one price
 * (proxy/openapi/example-price-change.ts) and compiles it again, so the changes example has real keys
 * to list; captures real answers of the proxy (proxy/openapi/capture-examples.ts), writes
 * proxy/openapi/examples.json, then the document. test/helpers/example-catalog.ts does the same steps.
 * Run it after changing a route, a document shape or the document source; the tests fail until then.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureExamples } from '../dist/proxy/openapi/capture-examples.js';
import { buildOpenApiDocument } from '../dist/proxy/openapi/document.js';
import { EXAMPLE_CATALOG } from '../dist/proxy/openapi/examples.js';
import { applyExamplePriceChange } from '../dist/proxy/openapi/example-price-change.js';
import { exampleSigningKeys } from '../dist/proxy/openapi/example-signing-key.js';

const repo = fileURLToPath(new URL('..', import.meta.url));
const bin = join(repo, 'bin', 'catalog.js');
const dir = mkdtempSync(join(tmpdir(), 'catalog-openapi-'));

function catalog(...args) {
  const run = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`catalog ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
  process.stdout.write(run.stdout);
}

try {
  catalog('generate', '--out', join(dir, 'catalog'), '--cards', String(EXAMPLE_CATALOG.cards), '--seed', String(EXAMPLE_CATALOG.seed));
  // Signed with the example key, so the signature and public-key routes answer (and always the same).
  writeFileSync(join(dir, 'example-signing-key.pem'), exampleSigningKeys().privatePem, { mode: 0o600 });
  const compile = ['compile', '--source', join(dir, 'catalog'), '--out', join(dir, 'snapshots'), '--workers', '1', '--sign-key', join(dir, 'example-signing-key.pem')];
  catalog(...compile);
  applyExamplePriceChange(join(dir, 'catalog'));
  catalog(...compile);
  const examples = await captureExamples(join(dir, 'snapshots'));
  writeFileSync(join(repo, 'proxy', 'openapi', 'examples.json'), `${JSON.stringify(examples, null, 2)}\n`);
  const doc = buildOpenApiDocument(examples);
  writeFileSync(join(repo, 'docs', 'openapi.json'), `${JSON.stringify(doc, null, 2)}\n`);
  console.log(`wrote proxy/openapi/examples.json (${Object.keys(examples.operations).length} operations, ${Object.keys(examples.errors).length} errors) and docs/openapi.json (${Object.keys(doc.paths).length} paths)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
