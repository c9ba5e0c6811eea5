/**
 * Which state a process uses, from `--state` and `--redis` (or CATALOG_STATE_URL and
 * CATALOG_REDIS_URL): a path is the embedded SQLite file (the default, no server needed); a
 * `postgres://` URL is the fleet state (issue 18), which needs Redis too, for the rate counters and
 * the audit hot path. A fleet without Redis, or Redis beside a SQLite file, is a usage error: it
 * would silently count nothing, or count in a place nobody reads.
 *
 * @example
 *   stateLocation({ state: 'data/state.sqlite' })                                  // { kind: 'sqlite', file: 'data/state.sqlite' }
 *   stateLocation({ state: 'postgres://u@db/catalog', redis: 'redis://cache:6379' }) // { kind: 'fleet', ... }
 */
import { CatalogError } from '../../snapshots/errors.js';

export type StateLocation =
  | { kind: 'sqlite'; file: string }
  | { kind: 'fleet'; postgres: string; redis: string; prefix: string };

export interface StateFlags {
  /** --state (a file or a postgres:// URL); falls back to CATALOG_STATE_URL. */
  state?: string;
  /** --redis; falls back to CATALOG_REDIS_URL (read for a fleet state only). */
  redis?: string;
}

export const isPostgresUrl = (value: string) => /^postgres(ql)?:\/\//i.test(value);

/**
 * The Redis key prefix (CATALOG_REDIS_PREFIX, default `catalog:`): several deployments, or test
 * runs, can share one Redis without reading each other's counters and audit stream.
 */
export function redisPrefixOf(env: NodeJS.ProcessEnv): string {
  const prefix = env.CATALOG_REDIS_PREFIX ?? 'catalog:';
  if (!/^[A-Za-z0-9:_.-]{1,64}$/.test(prefix)) {
    throw new CatalogError('usage', `CATALOG_REDIS_PREFIX must be 1-64 characters of A-Z a-z 0-9 : _ . -, got ${JSON.stringify(prefix.slice(0, 70))}`, { option: 'CATALOG_REDIS_PREFIX' });
  }
  return prefix;
}

export function stateLocation(flags: StateFlags, env: NodeJS.ProcessEnv = {}, options: { needsRedis?: boolean } = {}): StateLocation {
  const usage = (message: string, option: string) => new CatalogError('usage', message, { option });
  const state = flags.state ?? env.CATALOG_STATE_URL;
  if (state === undefined || state.length === 0) {
    throw usage('--state must name the state: a SQLite file (data/state.sqlite) or a postgres:// URL with --redis (or set CATALOG_STATE_URL)', 'state');
  }
  if (!isPostgresUrl(state)) {
    // Only the flag: a CATALOG_REDIS_URL exported for other tools must not break a file state.
    if (flags.redis !== undefined) throw usage(`--redis is for a postgres:// state; --state ${state} is a SQLite file, which holds the counters itself`, 'redis');
    return { kind: 'sqlite', file: state };
  }
  const redis = flags.redis ?? env.CATALOG_REDIS_URL;
  if ((options.needsRedis ?? true) && (redis === undefined || redis.length === 0)) {
    throw usage('a postgres:// state needs Redis too (rate counters and the audit hot path): add --redis redis://host:6379 or set CATALOG_REDIS_URL', 'redis');
  }
  if (redis !== undefined && redis.length > 0 && !/^rediss?:\/\//i.test(redis)) {
    throw usage(`--redis must be a redis:// or rediss:// URL, got ${JSON.stringify(redis.slice(0, 12))}`, 'redis');
  }
  return { kind: 'fleet', postgres: state, redis: redis ?? '', prefix: redisPrefixOf(env) };
}

/** The location for log lines: a file as given, a URL without its password. */
export function shownLocation(location: StateLocation): string {
  if (location.kind === 'sqlite') return location.file;
  const hide = (raw: string) => {
    try {
      const u = new URL(raw);
      if (u.password) u.password = '***';
      return u.toString();
    } catch {
      return raw.replace(/\/\/[^@/]*@/, '//***@');
    }
  };
  return `${hide(location.postgres)} + ${hide(location.redis)}`;
}
