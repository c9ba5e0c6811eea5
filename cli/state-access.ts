/**
 * The state a CLI command (`catalog keys …`, `catalog audit`, `catalog webhooks …`) works on, from `--state` (a SQLite
 * file, or a postgres:// URL: the fleet's store of record) and `--redis`, or CATALOG_STATE_URL and
 * CATALOG_REDIS_URL. Opened (created or migrated) for one command and always closed.
 *
 * On the fleet state:
 *   - revoke and rotate need Redis: they publish the key ID on the key-change channel after the
 *     commit, which every serving host subscribes to, so the key is refused everywhere within a
 *     second (state/fleet/key-changes.ts); without it hosts would keep a cached row up to 30 s;
 *   - audit, given Redis, first drains the audit stream into PostgreSQL (state/fleet/audit-flush.ts),
 *     so a request answered just before is listed; without Redis it lists what PostgreSQL holds.
 */
import type { AuditReader } from '../proxy/audit/reader.js';
import { createAuditReader } from '../proxy/audit/reader.js';
import { createKeyStore, type KeyStore } from '../proxy/keys/store.js';
import type { MaybeAsync } from '../proxy/route-table/route.js';
import { openStateDb } from '../proxy/state/open.js';
import { stateLocation, type StateFlags } from '../proxy/state/state-location.js';
import { createSqliteWebhookStore } from '../proxy/webhooks/sqlite-store.js';
import type { WebhookStore } from '../proxy/webhooks/store.js';
import { CatalogError } from '../snapshots/errors.js';

export interface CliState {
  keys: MaybeAsync<KeyStore>;
  audit: MaybeAsync<AuditReader>;
  webhooks: WebhookStore;
  /** Where the state is, for messages (a file, or "PostgreSQL"). */
  where: string;
}

/** How long `catalog audit` waits for the stream to reach PostgreSQL before it lists what is there. */
const CLI_FLUSH_MS = 10_000;

export async function withCliState<T>(
  flags: StateFlags,
  env: NodeJS.ProcessEnv,
  options: { announces?: boolean },
  run: (state: CliState) => T | Promise<T>,
): Promise<T> {
  const location = stateLocation(flags, env, { needsRedis: false });
  if (location.kind === 'sqlite') {
    const state = openStateDb(location.file);
    try {
      return await run({ keys: createKeyStore(state), audit: createAuditReader(state), webhooks: createSqliteWebhookStore(state), where: location.file });
    } finally {
      state.close();
    }
  }
  if (options.announces && location.redis === '') {
    throw new CatalogError('usage', 'on a postgres:// state, revoke and rotate need --redis (or CATALOG_REDIS_URL) to tell the running hosts at once; without it they would keep serving the key for up to 30 s', { option: 'redis' });
  }
  // The fleet's modules (pg, ioredis) are loaded only for a postgres:// state: a SQLite one is the
  // default, and loading them was about a third of such a command's start-up.
  const [{ openFleetState }, { createPostgresAuditReader }, { createPostgresWebhookStore }] = await Promise.all([
    import('../proxy/state/fleet/open-fleet.js'), import('../proxy/state/fleet/audit-store.js'), import('../proxy/webhooks/postgres-store.js'),
  ]);
  const fleet = await openFleetState({ postgres: location.postgres, redis: location.redis, prefix: location.prefix, serving: false, pgMax: 2 });
  const pgAudit = createPostgresAuditReader(fleet.pg);
  try {
    return await run({
      keys: fleet.keys,
      audit: {
        list: async (query) => {
          if (fleet.redis !== null) await fleet.flush(CLI_FLUSH_MS);
          return pgAudit.list(query);
        },
      },
      webhooks: createPostgresWebhookStore(fleet.pg),
      where: 'PostgreSQL',
    });
  } finally {
    await fleet.close();
  }
}

/** The `--state` and `--redis` options every state command takes. */
export const STATE_OPTION = ['--state <file|url>', 'proxy state: a SQLite file (created if missing) or a postgres:// URL (default: CATALOG_STATE_URL)'] as const;
export const REDIS_OPTION = ['--redis <url>', 'with a postgres:// state: the fleet\'s Redis (default: CATALOG_REDIS_URL)'] as const;
