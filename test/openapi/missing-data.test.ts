/**
 * Real catalogs have holes (no rarity, no release date, no artist): the importers keep them null, and
 * the documents say so. The example catalog behind responses.test.ts has none of these holes, so this
 * suite compiles an import of the messy fixtures and checks those documents against the OpenAPI
 * document too, so a field that may be null cannot be documented as always present.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { compileSnapshot } from '../../compiler/compile/index.js';
import { importCatalog } from '../../compiler/import/index.js';
import { createApp } from '../../proxy/app.js';
import { loadConfig } from '../../proxy/config.js';
import { createKeyStore } from '../../proxy/keys/store.js';
import { buildOpenApiDocument } from '../../proxy/openapi/document.js';
import { openStateDb } from '../../proxy/state/open.js';
import { createFsSnapshotSource } from '../../snapshots/store/fs.js';
import { tempDir } from '../helpers/cli.js';
import { createResponseValidator } from '../helpers/openapi-validator.js';
import { amiiboFile, pokemonRepo } from '../import/fixtures.js';

const validator = createResponseValidator(buildOpenApiDocument());
let app: ReturnType<typeof createApp>;
let auth: Record<string, string>;

beforeAll(async () => {
  const source = tempDir('openapi-holes-src-');
  await importCatalog({ format: 'pokemon-tcg-data', path: pokemonRepo(tempDir('pk-')), out: source, asOf: '2026-11-22' });
  await importCatalog({ format: 'amiibo', path: amiiboFile(tempDir('am-')), out: source, asOf: '2026-11-22' });
  const root = tempDir('openapi-holes-out-');
  await compileSnapshot({ source, out: root, workers: 0 });
  const state = openStateDb(':memory:');
  auth = { Authorization: `Bearer ${createKeyStore(state).mint({ tenant: 'acme', tier: 'enterprise' }).key}` };
  app = createApp({ db: state, config: loadConfig({}), snapshots: createFsSnapshotSource(root), logger: { error: () => undefined, info: () => undefined } });
});

describe('documents with missing source data match the OpenAPI document', () => {
  it.each([
    ['a card without rarity or release date', '/v1/cards/mep-1'],
    ['a card without artist', '/v1/cards/base1-5'],
    ['a set without release date', '/v1/sets/pokemon/mep'],
    ['a figure without rarity', '/v1/figures/0x0000000000000002'],
    ['a figure series of figures without rarity', '/v1/figures/series/amiibo-0x00'],
    ['search over them', '/v1/search?q=mep'],
  ])('%s', async (_name, url) => {
    const res = await app.request(url, { headers: auth });
    const checked = await validator.check('GET', url, res.clone());
    expect(res.status, await res.text()).toBe(200);
    expect(checked.status).toBe(200);
  });
});
