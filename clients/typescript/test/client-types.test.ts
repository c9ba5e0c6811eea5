/**
 * The client's types follow the served document: src/schema.ts must be exactly what
 * openapi-typescript generates from docs/openapi.json now (regenerate with `npm run client`), and the
 * typed calls of client.test.ts must type-check against it, so a route whose parameters or answer
 * change in the document breaks the build of the calls that use it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../../test/helpers/cli.js';

const PACKAGE = join(REPO, 'clients', 'typescript');
const bin = (name: string) => join(REPO, 'node_modules', '.bin', name);

describe('the generated types', () => {
  it('src/schema.ts is what openapi-typescript generates from docs/openapi.json (else: npm run client)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-client-types-'));
    try {
      const out = join(dir, 'schema.ts');
      const run = spawnSync(bin('openapi-typescript'), [join(REPO, 'docs', 'openapi.json'), '--output', out], { encoding: 'utf8', cwd: PACKAGE });
      expect(run.status, run.stderr).toBe(0);
      expect(readFileSync(join(PACKAGE, 'src', 'schema.ts'), 'utf8'), 'clients/typescript/src/schema.ts is stale: run npm run client')
        .toBe(readFileSync(out, 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the client and its tests type-check against them', () => {
    const run = spawnSync(bin('tsc'), ['-p', join(PACKAGE, 'tsconfig.test.json')], { encoding: 'utf8', cwd: PACKAGE });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
