/**
 * The state's parts the app wires (app.ts), from either implementation of the one state interface:
 *   sqlite  the embedded default: one SQLite file, every part synchronous inside (keys/store.ts,
 *           limits/counter.ts, audit/writer.ts in the group commit of state/group-commit.ts)
 *   fleet   issue 18: keys and audit rows in PostgreSQL (the store of record), counts and the audit
 *           hot path in one Redis script (state/fleet/), shared by every host of a deployment
 * Both give the same parts, so the request path, the admin routes and readiness do not know which
 * one they run on. The SQLite parts stay synchronous: its hot path pays no await it did not before.
 */
import { createFleetAuditSettle } from './audit/fleet-settle.js';
import { createAuditReader } from './audit/reader.js';
import { createAuditSettle } from './audit/settle.js';
import { createAuditWriter } from './audit/writer.js';
import type { ErrorResponder } from './errors.js';
import type { Settle } from './http/response-headers.js';
import { createKeyStore } from './keys/store.js';
import type { KeyChecker } from './keys/turn-check.js';
import { createRateLimiter } from './limits/counter.js';
import { createLimitStage, type LimitStage } from './limits/limit.js';
import { sqliteStateProbe } from './ops/readiness.js';
import type { AdminDeps } from './route-table/route.js';
import { createPostgresAuditReader } from './state/fleet/audit-store.js';
import { createRedisLimiter } from './state/fleet/limiter.js';
import type { FleetState } from './state/fleet/open-fleet.js';
import { createGroupCommit } from './state/group-commit.js';
import type { StateDb } from './state/open.js';
import type { Tier } from './tiers.js';

/** How long the admin audit route waits for the drainers to move what was answered before it asked. */
export const AUDIT_FLUSH_MS = 5000;

export interface AppState {
  keys: AdminDeps['keys'] & { check: KeyChecker };
  audit: AdminDeps['audit'];
  limit: LimitStage;
  settle(parts: { errors: ErrorResponder; onWrite?: (seconds: number) => void }): Settle;
  /** Readiness: resolves when the state took a write. */
  probe(): Promise<unknown>;
}

interface StateOptions {
  limits: Readonly<Record<Tier, number>>;
  clock: () => number;
}

export function sqliteAppState(db: StateDb, { limits, clock }: StateOptions): AppState {
  // One group commit per state connection: counter upserts and audit rows share its transactions.
  const commits = createGroupCommit(db);
  const limit = createLimitStage(createRateLimiter(db, { limits, clock }), clock);
  return {
    keys: createKeyStore(db, { clock }),
    audit: createAuditReader(db),
    limit,
    settle: ({ errors, onWrite }) => createAuditSettle({ writer: createAuditWriter(db), limit, errors, commits, onWrite }),
    probe: sqliteStateProbe(db, commits, clock),
  };
}

export function fleetAppState(fleet: FleetState, { limits, clock }: StateOptions): AppState {
  if (fleet.redis === null) throw new Error('a serving fleet state needs its Redis client');
  const limiter = createRedisLimiter(fleet.redis, { limits, clock, keys: fleet.keyNames });
  const limit = createLimitStage(null, clock);
  const pgAudit = createPostgresAuditReader(fleet.pg);
  return {
    keys: fleet.keys,
    audit: {
      // Read-your-writes across hosts: every request answered before the read is in PostgreSQL
      // first (or AUDIT_FLUSH_MS passed: the rows still on their way then show on the next read).
      list: async (query) => {
        await fleet.flush(AUDIT_FLUSH_MS);
        return pgAudit.list(query);
      },
    },
    limit,
    settle: ({ errors, onWrite }) => createFleetAuditSettle({ limiter, limit, errors, onWrite }),
    probe: () => fleet.probe(),
  };
}
