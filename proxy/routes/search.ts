// PLACEHOLDER (owned by the search helper): GET /v1/search answered from the snapshot's FTS5 index.
import type { Hono } from 'hono';
import type { ProxyEnv } from '../env.js';
import type { SnapshotReader } from '../../snapshots/store/types.js';

export interface SearchRouteDeps {
  /** Resolves the snapshot for this request (the caller already pinned it), or throws `unavailable`. */
  snapshot: (c: import('hono').Context<ProxyEnv>) => Promise<SnapshotReader>;
}

export function registerSearchRoute(_router: Hono<ProxyEnv>, _deps: SearchRouteDeps): void {
  // not built yet
}
