/**
 * The gate (API.md §4): runs before routing, so without a valid credential every `/v1` path is
 * 401, known or not, and routes cannot be probed. Caller kinds are tried in the fixed order:
 * bearer key, session cookie, internal key, same-origin anonymous; then the public showcase.
 * Paths outside `/v1` do not exist (404); /openapi.json answers before the gate (app.ts).
 */
import { getCookie } from 'hono/cookie';
import type { Context } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import type { ProxyConfig } from '../config.js';
import type { AuthContext, ProxyEnv } from '../env.js';
import type { KeyCheck } from '../keys/store.js';
import { createTurnCheck, type KeyChecker } from '../keys/turn-check.js';
import { guardState } from '../state/state-fault.js';
import { readBearer } from './bearer.js';
import { familyOf, refuseFamily } from './families.js';
import { refuseMethod } from './methods.js';
import { isFirstParty } from './first-party.js';
import { INTERNAL_KEY_HEADER, isInternalCaller } from './internal.js';
import { isPublicPath } from './public.js';
import { SESSION_COOKIE, verifySessionCookie } from './session.js';

export const UNAUTHENTICATED_MESSAGE =
  'A Bearer API key or a logged-in session is required. Partners can get a key minted at /v1/admin/b2b-keys.';

/**
 * Details of the 401 thrown for a key that matched a stored key which is revoked or expired: the
 * audit middleware reads them from `c.error` to write that key's row (decided in docs/auth.md).
 */
export interface RejectedKey {
  keyId: string;
  tenant: string;
}

export function rejectedKeyOf(err: unknown): RejectedKey | null {
  if (!(err instanceof CatalogError) || err.code !== 'unauthenticated') return null;
  const rejected = err.details.rejectedKey as RejectedKey | undefined;
  return rejected ?? null;
}

/**
 * The key a request presented, by ID and tenant: the caller's when a live bearer key passed the gate,
 * the rejected key's when a stored key was refused (revoked, expired), null otherwise (no key, or
 * one the store does not know). What the audit row and the request log name; never the key itself.
 */
export function presentedKeyOf(c: Context<ProxyEnv>): RejectedKey | null {
  const auth = c.get('auth');
  if (auth?.kind === 'bearer' && auth.keyId && auth.tenant) return { keyId: auth.keyId, tenant: auth.tenant };
  return rejectedKeyOf(c.error);
}

export interface GateDeps {
  keys: { check: KeyChecker };
  config: ProxyConfig;
  clock: () => number;
}

/** The gate stage of the request path (request-path.ts). */
export interface Gate {
  /**
   * Who is calling: 404 outside `/v1`, 401 without a valid credential; sets `auth`. Returns a
   * promise only when a bearer key is looked up in the fleet state; the SQLite check stays
   * synchronous, so the embedded path pays no await for it.
   */
  identify(c: Context<ProxyEnv>): void | Promise<void>;
  /** What that caller may do here: 403 for a family it may not call, 405 for a write on a partner path. */
  authorize(c: Context<ProxyEnv>): void;
}

export function createGate(deps: GateDeps): Gate {
  const { keys, config, clock } = deps;
  const checkKey = createTurnCheck(keys);

  function bearerCaller(result: KeyCheck): AuthContext {
    if (result.ok) return { kind: 'bearer', keyId: result.key.keyId, tenant: result.key.tenant, tier: result.key.tier };
    const rejectedKey: RejectedKey | undefined = 'key' in result && result.key ? { keyId: result.key.keyId, tenant: result.key.tenant } : undefined;
    throw new CatalogError('unauthenticated', UNAUTHENTICATED_MESSAGE, { invalidToken: true, reason: result.reason, rejectedKey });
  }

  function otherCaller(c: Context<ProxyEnv>): AuthContext | null {
    if (config.sessionSecret !== null) {
      const cookie = getCookie(c, SESSION_COOKIE);
      const claims = cookie === undefined ? null : verifySessionCookie(config.sessionSecret, cookie, clock());
      if (claims) return { kind: 'session', subject: claims.sub };
    }
    if (isInternalCaller(config.internalKey, c.req.header(INTERNAL_KEY_HEADER))) return { kind: 'internal' };
    if (isFirstParty(config.publicOrigins, c.req.header('Origin'), c.req.header('Sec-Fetch-Site'))) return { kind: 'first-party' };
    if (isPublicPath(c.req.path)) return { kind: 'public' };
    return null;
  }

  return {
    identify(c) {
      if (familyOf(c.req.path) === 'other') throw new CatalogError('not_found', 'No route matches this path.');
      const bearer = readBearer(c.req.header('Authorization'));
      if (bearer.kind !== 'absent') {
        const result = bearer.kind === 'key' ? guardState(() => checkKey(bearer.key)) : ({ ok: false, reason: 'malformed' } as const);
        if (result instanceof Promise) return result.then((r) => void c.set('auth', bearerCaller(r)));
        c.set('auth', bearerCaller(result));
        return;
      }
      const auth = otherCaller(c);
      if (auth === null) throw new CatalogError('unauthenticated', UNAUTHENTICATED_MESSAGE);
      c.set('auth', auth);
    },
    authorize(c) {
      refuseFamily(c);
      refuseMethod(c);
    },
  };
}
