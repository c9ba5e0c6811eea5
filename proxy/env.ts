/**
 * The Hono environment shared by every part of the proxy: what the gate learned about the caller
 * and what the route reports back for the audit row.
 */
import type { Settle } from './http/response-headers.js';
import type { Tier } from './tiers.js';

export type CallerKind = 'bearer' | 'session' | 'internal' | 'first-party' | 'public';

export interface AuthContext {
  kind: CallerKind;
  /** Set for bearer callers only. */
  keyId?: string;
  tenant?: string;
  tier?: Tier;
  /** Session subject (user id) for session callers. */
  subject?: string;
}

export interface ProxyVariables {
  requestId: string;
  auth: AuthContext;
  /** The route pattern that answered (e.g. `/v1/cards/:id`), for the audit row. */
  routePattern: string;
  /** The snapshot the answer came from, for the audit row and `X-Snapshot-Id`. */
  snapshotId: string | null;
  /** Headers every response of this request carries, as a plain object (http/response-headers.ts). */
  responseHeaders: Record<string, string>;
  /** Set by the limit stage (limits/limit.ts): this request is counted, in the window it arrived in. */
  rateCount: { keyId: string; tier: Tier; windowStart: number };
  /** When the request entered the request path: ms since the epoch, and performance.now() (audit row). */
  arrivedMs: number;
  arrivedAt: number;
  /** Set by the request path, taken by the first answer sent (http/response-headers.ts). */
  settle: Settle | undefined;
  /** Set by `respond()`: the body length for the audit row (null when not known up front). */
  responseBytes: number | null;
}

export type ProxyEnv = { Variables: ProxyVariables };
