/**
 * A proxy app over the fixture snapshot, on a state connection the test chooses (a locked, read-only
 * or size-capped one), with a captured logger: for the fault and hostile-input tests, where a
 * success would be a real 200 from a real snapshot, so every failure is visibly a failure.
 */
import { join } from 'node:path';
import { createApp } from '../../proxy/app.js';
import { loadConfig } from '../../proxy/config.js';
import { createKeyStore } from '../../proxy/keys/store.js';
import type { ProxyLogger } from '../../proxy/logger.js';
import { openStateDb, type StateDb } from '../../proxy/state/open.js';
import { createFsSnapshotSource } from '../../snapshots/store/fs.js';
import type { SnapshotSource } from '../../snapshots/store/types.js';
import { INTERNAL_KEY, tempDir, testClock, type LogLine, type TestClock } from './auth-fixtures.js';
import { compiledCatalog, type CompiledCatalog } from './compiled-catalog.js';
import { writeFixtureSnapshot, type FixtureSnapshot } from './snapshot-fixture.js';

export interface FixtureWorld {
  dir: string;
  stateFile: string;
  snapshotRoot: string;
  fixture: FixtureSnapshot;
  /** A writable connection for setup and for reading what was committed. */
  state: StateDb;
  /** Minted on `state`: tenant acme (free tier) and tenant globex (standard tier). */
  acme: { key: string; keyId: string };
  globex: { key: string; keyId: string };
  clock: TestClock;
  logs: LogLine[];
  /** A fresh app on `db` (default: a new connection to the state file), logging into `logs`. */
  app(options?: { db?: StateDb; env?: NodeJS.ProcessEnv; snapshots?: SnapshotSource }): ReturnType<typeof createApp>;
  close(): void;
}

export async function fixtureWorld(): Promise<FixtureWorld> {
  const tmp = tempDir('catalog-reliability-');
  const stateFile = join(tmp.dir, 'state.sqlite');
  const snapshotRoot = join(tmp.dir, 'snapshots');
  const fixture = await writeFixtureSnapshot(snapshotRoot);
  const clock = testClock();
  const state = openStateDb(stateFile);
  const keys = createKeyStore(state, { clock });
  const acme = keys.mint({ tenant: 'acme', tier: 'free' });
  const globex = keys.mint({ tenant: 'globex', tier: 'standard' });
  const logs: LogLine[] = [];
  const logger: ProxyLogger = {
    error: (message, fields) => logs.push({ level: 'error', message, fields }),
    info: (message, fields) => logs.push({ level: 'info', message, fields }),
  };
  const opened: StateDb[] = [];
  return {
    dir: tmp.dir,
    stateFile,
    snapshotRoot,
    fixture,
    state,
    acme: { key: acme.key, keyId: acme.keyId },
    globex: { key: globex.key, keyId: globex.keyId },
    clock,
    logs,
    app(options = {}) {
      let db = options.db;
      if (!db) {
        db = openStateDb(stateFile);
        opened.push(db);
      }
      return createApp({
        db,
        config: loadConfig(options.env ?? { CATALOG_INTERNAL_KEY: INTERNAL_KEY }),
        snapshots: options.snapshots ?? createFsSnapshotSource(snapshotRoot),
        clock,
        logger,
      });
    },
    close() {
      for (const db of opened) if (db.sqlite.open) db.close();
      if (state.sqlite.open) state.close();
      tmp.cleanup();
    },
  };
}

/**
 * A world whose app serves a freshly compiled catalog (helpers/compiled-catalog.ts) with every tier's
 * limit out of reach: for suites that look for faults and leaks, not 429s (limits have their own).
 */
export async function compiledWorld(env: NodeJS.ProcessEnv = {}): Promise<{ world: FixtureWorld; catalog: CompiledCatalog; app: ReturnType<FixtureWorld['app']> }> {
  const catalog = await compiledCatalog();
  const world = await fixtureWorld();
  const app = world.app({
    snapshots: createFsSnapshotSource(catalog.root),
    env: { CATALOG_INTERNAL_KEY: INTERNAL_KEY, CATALOG_TIER_LIMITS: 'free=10000000,standard=10000000,enterprise=10000000', ...env },
  });
  return { world, catalog, app };
}
