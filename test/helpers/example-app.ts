/**
 * The real app over the example catalog (helpers/example-catalog.ts: the catalog the OpenAPI
 * examples come from), on a real SQLite state file, with the example public key and every tier's
 * limit out of reach: for suites that compare answers with the document, not rate limits.
 */
import { createApp } from '../../proxy/app.js';
import { loadConfig } from '../../proxy/config.js';
import { createKeyStore, type KeyStore } from '../../proxy/keys/store.js';
import { exampleSigningKeys } from '../../proxy/openapi/example-signing-key.js';
import { openStateDb, type StateDb } from '../../proxy/state/open.js';
import { createFsSnapshotSource } from '../../snapshots/store/fs.js';
import { INTERNAL_KEY, tempDir, testClock } from './auth-fixtures.js';
import { compileExampleCatalog } from './example-catalog.js';

export interface ExampleApp {
  app: ReturnType<typeof createApp>;
  state: StateDb;
  /** The key store of `state`, on the app's clock. */
  keys: KeyStore;
  cleanup(): void;
}

export async function exampleApp(): Promise<ExampleApp> {
  const catalog = await compileExampleCatalog();
  const tmp = tempDir('catalog-example-app-');
  const state = openStateDb(`${tmp.dir}/state.sqlite`);
  const clock = testClock();
  const app = createApp({
    db: state, clock, logger: { error: () => undefined, info: () => undefined }, publicKey: exampleSigningKeys().publicKey,
    config: loadConfig({ CATALOG_INTERNAL_KEY: INTERNAL_KEY, CATALOG_TIER_LIMITS: 'free=100000000,standard=100000000,enterprise=100000000' }),
    snapshots: createFsSnapshotSource(catalog.root),
  });
  return {
    app, state, keys: createKeyStore(state, { clock }),
    cleanup() {
      if (state.sqlite.open) state.close();
      tmp.cleanup();
      catalog.cleanup();
    },
  };
}
