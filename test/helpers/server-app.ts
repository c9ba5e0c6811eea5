/**
 * The real app (createApp) for route tests driven through `app.request()`: a real SQLite state file
 * in a temp folder and a real minted key, so every catalog request passes the gate, the rate limit
 * and the audit middleware exactly as in production.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../proxy/app.js';
import { loadConfig } from '../../proxy/config.js';
import { createKeyStore } from '../../proxy/keys/store.js';
import { openStateDb, type StateDb } from '../../proxy/state/open.js';
import type { SnapshotSource } from '../../snapshots/store/types.js';
import type { Route } from '../../proxy/route-table/route.js';

export interface TestApp {
  request(path: string, init?: RequestInit): Promise<Response>;
  /** Headers of an authenticated partner call (Authorization: Bearer <minted key>). */
  headers: Record<string, string>;
  state: StateDb;
  close(): void;
}

export async function createTestApp(deps: { snapshots: SnapshotSource; cacheBytes?: number; tier?: 'free' | 'standard' | 'enterprise'; routes?: readonly Route[] }): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-state-'));
  const state = openStateDb(join(dir, 'state.sqlite'));
  const minted = createKeyStore(state).mint({ tenant: 'acme', tier: deps.tier ?? 'enterprise' });
  const app = createApp({
    db: state,
    config: loadConfig({}),
    snapshots: deps.snapshots,
    cacheBytes: deps.cacheBytes,
    routes: deps.routes,
    logger: { error: () => undefined, info: () => undefined },
  });
  return {
    request: async (path, init) => app.request(path, init),
    headers: { Authorization: `Bearer ${minted.key}` },
    state,
    close: () => {
      state.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
