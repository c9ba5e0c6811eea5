/**
 * Moves the audit stream into PostgreSQL, idempotently. Each host may run one; they share a
 * consumer group, so each entry is delivered to one of them. A batch is inserted in one
 * transaction with ON CONFLICT (stream_id) DO NOTHING and acknowledged (XACK) only after the
 * commit. A drainer that dies between the two leaves its entries pending in the group: they are
 * claimed by a live drainer once idle for `claimIdleMs` (XAUTOCLAIM) or re-read by the same
 * consumer name when it comes back, and inserted again without duplicates.
 *
 * Acknowledged entries are trimmed from the stream (XTRIM MINID below the oldest still pending or
 * undelivered entry), so Redis holds only what PostgreSQL does not have for sure yet.
 *
 * @example
 *   const drainer = createAuditDrainer({ redis, pg, consumer: hostname() });
 *   drainer.start();               // loops until stop()
 *   await drainer.drainOnce();     // or one batch by hand: how many entries it moved
 *   await drainer.stop();
 */
import type { Redis } from 'ioredis';
import { auditEntryOf } from './audit-stream.js';
import { type FleetKeys, fleetKeys } from './keys.js';
import type { PgPool } from './postgres.js';
import { fleetUnavailable, orUnavailable } from './unavailable.js';

export interface DrainerOptions {
  /** A client of its own: the drainer's blocking reads would hold up the limiter's commands. */
  redis: Redis;
  pg: PgPool;
  /** This drainer's name in the consumer group (the host's name: one per host). */
  consumer: string;
  keys?: FleetKeys;
  /** Entries per transaction. */
  batch?: number;
  /** How long an entry must sit unacknowledged with another consumer before this one takes it (ms). */
  claimIdleMs?: number;
  /** How long a read waits for new entries when the stream is empty (ms). */
  blockMs?: number;
  /** Called after the commit, before the acknowledgement (the crash tests stop the process here). */
  onCommitted?: (streamIds: string[]) => void;
  /** Told about a failed batch in the loop (Redis or PostgreSQL down); the loop retries after a pause. */
  onError?: (err: unknown) => void;
}

export interface AuditDrainer {
  /** Moves one batch (claimed, own pending or new entries); resolves with how many entries it handled. */
  drainOnce(options?: { block?: boolean }): Promise<number>;
  start(): void;
  /** Ends the loop after the batch in hand. */
  stop(): Promise<void>;
}

type StreamEntry = [id: string, fields: string[] | null];

const INSERT_SQL = `INSERT INTO audit_log
  (stream_id, api_key_id, tenant_name, route, status, at, request_id, path, bytes, duration_ms, snapshot_id)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::timestamptz[],
    $7::text[], $8::text[], $9::bigint[], $10::int[], $11::text[])
  ON CONFLICT (stream_id) DO NOTHING`;

// KEYS: the stream. ARGV: the group. The floor is the oldest entry still pending in the group, or,
// when none is, the group's last-delivered-id; MINID keeps the floor entry itself, so at most one
// acknowledged entry stays behind, and entries not yet delivered (after the floor) are never touched.
const TRIM_SCRIPT = `
local floor = redis.call('XPENDING', KEYS[1], ARGV[1])[2]
if not floor then
  for _, g in ipairs(redis.call('XINFO', 'GROUPS', KEYS[1])) do
    local name, last
    for i = 1, #g, 2 do
      if g[i] == 'name' then name = g[i + 1] end
      if g[i] == 'last-delivered-id' then last = g[i + 1] end
    end
    if name == ARGV[1] then floor = last end
  end
end
if floor and floor ~= '0-0' then return redis.call('XTRIM', KEYS[1], 'MINID', floor) end
return 0
`;

export function createAuditDrainer(options: DrainerOptions): AuditDrainer {
  const { redis, pg, consumer } = options;
  const keys = options.keys ?? fleetKeys();
  const batch = options.batch ?? 500;
  const claimIdleMs = options.claimIdleMs ?? 30_000;
  const blockMs = options.blockMs ?? 1000;
  if (!('catalogTrim' in redis)) redis.defineCommand('catalogTrim', { numberOfKeys: 1, lua: TRIM_SCRIPT });
  const runTrim = (redis as unknown as { catalogTrim(stream: string, group: string): Promise<number> }).catalogTrim.bind(redis);
  let groupReady = false;
  // Our own pending entries (left by an earlier run under this consumer name) are read first.
  let ownPendingDone = false;
  let running: Promise<void> | null = null;
  let stopping = false;

  async function ensureGroup(): Promise<void> {
    if (groupReady) return;
    try {
      // From the stream's start ('0'): entries appended before any drainer ran are moved too.
      await redis.xgroup('CREATE', keys.stream, keys.group, '0', 'MKSTREAM');
    } catch (err) {
      if (!String((err as Error).message).includes('BUSYGROUP')) throw err;
    }
    groupReady = true;
  }

  async function nextEntries(block: boolean): Promise<StreamEntry[]> {
    const claimed = (await redis.xautoclaim(keys.stream, keys.group, consumer, claimIdleMs, '0-0', 'COUNT', batch)) as [string, StreamEntry[], string[]?];
    if (claimed[1].length > 0) return claimed[1];
    if (!ownPendingDone) {
      const own = await readGroup('0', false);
      if (own.length > 0) return own;
      ownPendingDone = true;
    }
    return readGroup('>', block);
  }

  async function readGroup(from: string, block: boolean): Promise<StreamEntry[]> {
    const args: (string | number)[] = ['GROUP', keys.group, consumer, 'COUNT', batch];
    if (block) args.push('BLOCK', blockMs);
    const reply = (await (redis.xreadgroup as (...a: (string | number)[]) => Promise<unknown>)(...args, 'STREAMS', keys.stream, from)) as [string, StreamEntry[]][] | null;
    return reply?.[0]?.[1] ?? [];
  }

  async function insert(entries: StreamEntry[]): Promise<void> {
    const cols: unknown[][] = Array.from({ length: 11 }, () => []);
    for (const [id, fields] of entries) {
      // An entry deleted from the stream while pending comes back without fields: nothing to insert.
      const e = fields ? auditEntryOf(fields) : null;
      if (!e) continue;
      const row = [id, e.apiKeyId, e.tenantName, e.route, e.status, new Date(e.timestampMs), e.requestId, e.path, e.bytes, e.durationMs, e.snapshotId];
      row.forEach((v, i) => cols[i].push(v));
    }
    if (cols[0].length === 0) return;
    // One statement is its own transaction: committed when the query resolves.
    await orUnavailable('PostgreSQL', () => pg.query(INSERT_SQL, cols));
  }

  async function trim(): Promise<void> {
    // One script, so no drainer can read entries between the floor's reading and the trim: read
    // in two calls, another host's XREADGROUP in between could move last-delivered-id past entries
    // it had just taken, the trim would delete them while pending, and if that host then died
    // before its commit they would come back to the claiming drainer without fields: lost rows.
    await runTrim(keys.stream, keys.group);
  }

  async function drainOnce({ block = false } = {}): Promise<number> {
    let entries: StreamEntry[];
    try {
      await ensureGroup();
      entries = await nextEntries(block);
    } catch (err) {
      throw fleetUnavailable('Redis', err);
    }
    if (entries.length === 0) return 0;
    await insert(entries);
    const ids = entries.map(([id]) => id);
    options.onCommitted?.(ids);
    await orUnavailable('Redis', async () => {
      await redis.xack(keys.stream, keys.group, ...ids);
      await trim();
    });
    return entries.length;
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      try {
        await drainOnce({ block: true });
      } catch (err) {
        // Stopping: the blocking read was cut off on purpose (its client closed), nothing to report.
        if (stopping) break;
        options.onError?.(err);
        // The group may be gone with a restarted Redis that lost it; make it again next time. A
        // batch read but not committed is pending on this consumer: read it again first.
        groupReady = false;
        ownPendingDone = false;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  return {
    drainOnce,
    start() {
      if (running) return;
      stopping = false;
      running = loop();
    },
    async stop() {
      stopping = true;
      await running;
      running = null;
    },
  };
}

/** The newest stream ID the drainers' group has handed out (null: no such group yet). */
export async function lastDeliveredId(redis: Redis, keys: FleetKeys): Promise<string | null> {
  const groups = (await redis.xinfo('GROUPS', keys.stream)) as unknown[][];
  for (const flat of groups) {
    const m = new Map<string, unknown>();
    for (let i = 0; i + 1 < flat.length; i += 2) m.set(String(flat[i]), flat[i + 1]);
    if (m.get('name') === keys.group) return (m.get('last-delivered-id') as string | undefined) ?? null;
  }
  return null;
}
