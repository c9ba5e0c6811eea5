/**
 * Session cookie of the service's own apps (API.md §4, caller kind 2). The cookie is
 * `catalog_session=<payload>.<signature>`: payload is base64url of the JSON `{"sub":"<user id>","exp":<unix seconds>}`,
 * signature is base64url of HMAC-SHA256(secret, payload). It is checked in constant time; an
 * expired, unsigned or garbled cookie is simply not a session. No secret configured: sessions off.
 *
 * @example
 *   const value = signSessionCookie(secret, { sub: 'user-42', exp: Math.floor(Date.now() / 1000) + 3600 });
 *   verifySessionCookie(secret, value, Date.now())   // { sub: 'user-42', exp: ... }
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'catalog_session';

export interface SessionClaims {
  /** The user id of the logged-in user. */
  sub: string;
  /** Expiry, seconds since the Unix epoch. */
  exp: number;
}

const PART = /^[A-Za-z0-9_-]+$/;
const MAX_COOKIE_LENGTH = 4096;

function sign(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(payload, 'utf8').digest();
}

export function signSessionCookie(secret: string, claims: SessionClaims): string {
  const payload = Buffer.from(JSON.stringify({ sub: claims.sub, exp: claims.exp }), 'utf8').toString('base64url');
  return `${payload}.${sign(secret, payload).toString('base64url')}`;
}

export function verifySessionCookie(secret: string, value: string, nowMs: number): SessionClaims | null {
  if (value.length > MAX_COOKIE_LENGTH) return null;
  const parts = value.split('.');
  if (parts.length !== 2 || !PART.test(parts[0]) || !PART.test(parts[1])) return null;
  const presented = Buffer.from(parts[1], 'base64url');
  const expected = sign(secret, parts[0]);
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const { sub, exp } = (claims ?? {}) as Partial<SessionClaims>;
  if (typeof sub !== 'string' || sub.length === 0 || sub.length > 128) return null;
  if (typeof exp !== 'number' || !Number.isFinite(exp) || exp * 1000 <= nowMs) return null;
  return { sub, exp };
}
