/**
 * The fleet's rate limiter and audit hot path: ONE Lua script per counted request counts it in its
 * key's window and appends its audit entry to the stream. Redis runs a script atomically, so the
 * count and the entry cannot part: there is no count without its row, nor a row without its count,
 * whichever host answered. With `appendfsync always` both are on disk when the script's reply
 * arrives, before the answer leaves (docs/benchmarks.md measures the cost).
 *
 * Windows and headers are those of the SQLite limiter (limits/counter.ts): fixed 60 s windows named
 * by their start, every request counted (refused ones too), `allowed` while the count is within the
 * limit, and the same RateDecision. The entry of a refused request is rewritten inside the script
 * (429, unmatched route, no snapshot, the 429's bytes), since only the count decides it; the caller
 * passes those figures in (or a function of the limit and reset seconds that renders them), which
 * it can because the 429's text depends on those two only, both known before the count.
 *
 * @example
 *   const limiter = createRedisLimiter(redis, { limits: config.tierLimits });
 *   const d = await limiter.hit({ keyId, tier: 'free', windowStart }, entry, (limit, reset) => ({ status: 429, bytes: bytesOf429(limit, reset) }));
 *   // d.allowed false: answer the 429; the stream already holds the row saying so.
 */
import type { Redis } from 'ioredis';
import type { AuditEntry } from '../../audit/row.js';
import { UNMATCHED_ROUTE } from '../../audit/row.js';
import { decisionOf, type RateDecision, resetSecondsOf } from '../../limits/counter.js';
import { RATE_WINDOW_SECONDS, type Tier } from '../../tiers.js';
import { AUDIT_FIELDS, auditFieldPairs, auditValues } from './audit-stream.js';
import { type FleetKeys, fleetKeys } from './keys.js';
import { orUnavailable } from './unavailable.js';

// KEYS: counter, stream. ARGV: expire-at (s), limit, refused status, refused bytes, route for
// refused, then the entry's values in AUDIT_FIELDS order. The counter lives until the end of the
// window after its own: a request that arrived in its last milliseconds is counted there when its
// answer is ready, as in the SQLite limiter.
const FIELD_COUNT = AUDIT_FIELDS.length;
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIREAT', KEYS[1], ARGV[1]) end
local names = {${AUDIT_FIELDS.map((f) => `'${f}'`).join(', ')}}
local values = {}
for i = 1, ${FIELD_COUNT} do values[i] = ARGV[5 + i] end
if count > tonumber(ARGV[2]) then
  values[${AUDIT_FIELDS.indexOf('r') + 1}] = ARGV[5]
  values[${AUDIT_FIELDS.indexOf('s') + 1}] = ARGV[3]
  values[${AUDIT_FIELDS.indexOf('b') + 1}] = ARGV[4]
  values[${AUDIT_FIELDS.indexOf('n') + 1}] = ''
end
local fv = {}
for i = 1, ${FIELD_COUNT} do fv[2 * i - 1] = names[i]; fv[2 * i] = values[i] end
local id = redis.call('XADD', KEYS[2], '*', unpack(fv))
return {count, id}
`;

export interface RateCount {
  keyId: string;
  tier: Tier;
  /** The window the request arrived in (seconds since the epoch; limits/counter.ts windowStartOf). */
  windowStart: number;
}

/** What the audit row of a request refused by the count says instead of the answer's figures. */
export interface Refusal {
  status: number;
  bytes: number | null;
}

/**
 * The refusal's figures, given the limit and the seconds to the window's end that the 429 will
 * state (the same ones the returned decision carries, computed from one reading of the clock).
 */
export type RefusalOf = (limit: number, resetSeconds: number) => Refusal;

export interface FleetLimiter {
  /**
   * Counts the request and appends its audit entry (rewritten as the refusal when over the limit)
   * in one atomic script; resolves with the decision once both are written. Fails with a
   * CatalogError `unavailable` when Redis cannot take them: the request must then be refused.
   */
  hit(count: RateCount, entry: AuditEntry, refusal: Refusal | RefusalOf): Promise<RateDecision>;
  /** Appends the audit entry of a request that is not counted (a revoked or expired key's 401). */
  record(entry: AuditEntry): Promise<void>;
}

export interface FleetLimiterOptions {
  limits: Readonly<Record<Tier, number>>;
  clock?: () => number;
  keys?: FleetKeys;
}

type HitReply = [number, string];

export function createRedisLimiter(redis: Redis, options: FleetLimiterOptions): FleetLimiter {
  const clock = options.clock ?? Date.now;
  const keys = options.keys ?? fleetKeys();
  // EVALSHA with a fallback to EVAL: a restarted Redis (empty script cache) is served without a reload.
  if (!('catalogHit' in redis)) redis.defineCommand('catalogHit', { numberOfKeys: 2, lua: HIT_SCRIPT });
  const runHit = (redis as unknown as { catalogHit(...args: string[]): Promise<HitReply> }).catalogHit.bind(redis);

  return {
    async hit(count, entry, refusal) {
      const nowMs = clock();
      const limit = options.limits[count.tier];
      const refused = typeof refusal === 'function' ? refusal(limit, resetSecondsOf(count.windowStart, nowMs)) : refusal;
      const expireAt = count.windowStart + 2 * RATE_WINDOW_SECONDS;
      const [n] = await orUnavailable('Redis', () =>
        runHit(
          keys.counter(count.keyId, count.windowStart), keys.stream,
          String(expireAt), String(limit), String(refused.status), refused.bytes === null ? '' : String(refused.bytes), UNMATCHED_ROUTE,
          ...auditValues(entry),
        ),
      );
      return decisionOf(n, count.tier, limit, count.windowStart, nowMs);
    },
    async record(entry) {
      await orUnavailable('Redis', () => redis.xadd(keys.stream, '*', ...auditFieldPairs(entry)));
    },
  };
}
