/**
 * Builds a real proxy app for tests: a real SQLite state file in a temp folder, a config from a
 * fake environment, a controllable clock, a captured logger, and a snapshot source that has
 * nothing published (catalog routes may answer 503/404; the auth tests only care about the gate).
 */
import type { AuditLogRow } from '../../proxy/audit/reader.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../proxy/app.js';
import { loadConfig, type ProxyConfig } from '../../proxy/config.js';
import { createKeyStore, type KeyStore } from '../../proxy/keys/store.js';
import type { ProxyLogger } from '../../proxy/logger.js';
import { openStateDb, type StateDb } from '../../proxy/state/open.js';
import type { SnapshotSource } from '../../snapshots/store/types.js';

export const INTERNAL_KEY = 'internal-key-for-tests-0123456789';
export const SESSION_SECRET = 'session-secret-for-tests-0123456789abcdef';
export const FIRST_PARTY_ORIGIN = 'https://app.example.test';
/** 2026-11-20T10:00:30.000Z: 30 s into a rate window. */
export const T0 = Date.parse('2026-11-20T10:00:30.000Z');

export interface TestClock {
  now: number;
  (): number;
}

export function testClock(start = T0): TestClock {
  const clock = (() => clock.now) as TestClock;
  clock.now = start;
  return clock;
}

export function tempDir(prefix = 'catalog-auth-'): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export const emptySnapshots: SnapshotSource = { current: async () => null, open: async () => null };

export interface LogLine {
  level: 'error' | 'info';
  message: string;
  fields: Record<string, unknown>;
}

/** A ProxyLogger that appends every line to `logs`, for tests to read. */
export function capturingLogger(logs: LogLine[]): ProxyLogger {
  return {
    error: (message, fields) => logs.push({ level: 'error', message, fields }),
    info: (message, fields) => logs.push({ level: 'info', message, fields }),
  };
}

export interface AuthHarness {
  app: ReturnType<typeof createApp>;
  state: StateDb;
  keys: KeyStore;
  config: ProxyConfig;
  clock: TestClock;
  logs: LogLine[];
  stateFile: string;
  close(): void;
}

export function authHarness(options: { env?: NodeJS.ProcessEnv; snapshots?: SnapshotSource; clock?: TestClock } = {}): AuthHarness {
  const tmp = tempDir();
  const stateFile = join(tmp.dir, 'state.sqlite');
  const state = openStateDb(stateFile);
  const clock = options.clock ?? testClock();
  const logs: LogLine[] = [];
  const logger = capturingLogger(logs);
  const config = loadConfig(options.env ?? { CATALOG_INTERNAL_KEY: INTERNAL_KEY });
  const app = createApp({ db: state, config, snapshots: options.snapshots ?? emptySnapshots, clock, logger });
  return {
    app,
    state,
    keys: createKeyStore(state, { clock }),
    config,
    clock,
    logs,
    stateFile,
    close: () => {
      state.close();
      tmp.cleanup();
    },
  };
}

export type StoredAuditRow = AuditLogRow;

/** Audit rows as stored, oldest first, read straight from SQLite. */
export function auditRows(state: StateDb): StoredAuditRow[] {
  return state.sqlite.prepare('SELECT * FROM audit_log ORDER BY id').all() as StoredAuditRow[];
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
export const internal = () => ({ 'X-Service-Internal-Key': INTERNAL_KEY });
