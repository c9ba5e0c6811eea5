/**
 * The proxy's settings, read from the environment once at start and validated there, so a bad
 * value stops the server with a message naming the variable instead of failing on some request.
 *
 * @example
 *   const config = loadConfig(process.env);
 *   config.tierLimits.standard   // 600 unless CATALOG_TIER_LIMITS says otherwise
 */
import { CatalogError } from '../snapshots/errors.js';
import { DEFAULT_TIER_LIMITS, isTier, TIERS, type Tier } from './tiers.js';

export interface ProxyConfig {
  /** `realm` of the WWW-Authenticate challenge. */
  realm: string;
  /** Secret of the `X-Service-Internal-Key` header; null turns that caller kind off. */
  internalKey: string | null;
  /** HMAC secret of the session cookie; null turns sessions off. */
  sessionSecret: string | null;
  /** First-party origins (`https://app.example.com`); empty turns same-origin anonymous access off. */
  publicOrigins: readonly string[];
  /** Requests per 60 s window for each tier. */
  tierLimits: Readonly<Record<Tier, number>>;
  /** Audit rows older than this many days are deleted. */
  auditRetentionDays: number;
}

export const CONFIG_VARIABLES = [
  'CATALOG_INTERNAL_KEY',
  'CATALOG_SESSION_SECRET',
  'CATALOG_PUBLIC_ORIGINS',
  'CATALOG_REALM',
  'CATALOG_TIER_LIMITS',
  'CATALOG_AUDIT_RETENTION_DAYS',
] as const;

export const DEFAULT_REALM = 'catalog';
export const DEFAULT_AUDIT_RETENTION_DAYS = 90;
const MIN_INTERNAL_KEY_LENGTH = 24;
const MIN_SESSION_SECRET_LENGTH = 32;
// The realm is quoted inside a header: quotes, backslashes and control characters would break it.
const REALM_PATTERN = /^[\x20-\x7e]{1,64}$/;

export function loadConfig(env: NodeJS.ProcessEnv): ProxyConfig {
  return {
    realm: parseRealm(env.CATALOG_REALM),
    internalKey: parseSecret('CATALOG_INTERNAL_KEY', env.CATALOG_INTERNAL_KEY, MIN_INTERNAL_KEY_LENGTH),
    sessionSecret: parseSecret('CATALOG_SESSION_SECRET', env.CATALOG_SESSION_SECRET, MIN_SESSION_SECRET_LENGTH),
    publicOrigins: parseOrigins(env.CATALOG_PUBLIC_ORIGINS),
    tierLimits: parseTierLimits(env.CATALOG_TIER_LIMITS),
    auditRetentionDays: parseRetention(env.CATALOG_AUDIT_RETENTION_DAYS),
  };
}

const fail = (message: string, setting: string) => new CatalogError('config', message, { setting });

function unset(raw: string | undefined): boolean {
  return raw === undefined || raw === '';
}

function parseSecret(name: string, raw: string | undefined, minLength: number): string | null {
  if (unset(raw)) return null;
  // The value is never echoed back: it is a secret.
  if (raw!.length < minLength) throw fail(`${name} must be at least ${minLength} characters (or unset to turn it off)`, name);
  if (/\s/.test(raw!)) throw fail(`${name} must not contain whitespace`, name);
  return raw!;
}

function parseRealm(raw: string | undefined): string {
  if (unset(raw)) return DEFAULT_REALM;
  if (!REALM_PATTERN.test(raw!) || /["\\]/.test(raw!)) {
    throw fail('CATALOG_REALM must be 1-64 printable ASCII characters without quotes or backslashes', 'CATALOG_REALM');
  }
  return raw!;
}

function parseOrigins(raw: string | undefined): string[] {
  if (unset(raw)) return [];
  const origins: string[] = [];
  for (const part of raw!.split(',')) {
    const value = part.trim();
    if (value === '') continue;
    let url: URL | null = null;
    try {
      url = new URL(value);
    } catch {
      url = null;
    }
    // Browsers send the origin exactly as scheme://host[:port]; anything else could never match.
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== value) {
      throw fail(`CATALOG_PUBLIC_ORIGINS: "${value}" is not an origin (expected scheme://host[:port], e.g. https://app.example.com)`, 'CATALOG_PUBLIC_ORIGINS');
    }
    origins.push(value);
  }
  return origins;
}

function parseTierLimits(raw: string | undefined): Record<Tier, number> {
  const limits: Record<Tier, number> = { ...DEFAULT_TIER_LIMITS };
  if (unset(raw)) return limits;
  for (const part of raw!.split(',')) {
    const entry = part.trim();
    if (entry === '') continue;
    const match = /^([a-z]+)=([0-9]{1,9})$/.exec(entry);
    if (!match || !isTier(match[1]) || Number(match[2]) < 1) {
      throw fail(`CATALOG_TIER_LIMITS: "${entry}" must be <tier>=<requests per minute> with tier one of ${TIERS.join(', ')} and a count of 1 or more (e.g. free=60,standard=600)`, 'CATALOG_TIER_LIMITS');
    }
    limits[match[1]] = Number(match[2]);
  }
  return limits;
}

function parseRetention(raw: string | undefined): number {
  if (unset(raw)) return DEFAULT_AUDIT_RETENTION_DAYS;
  if (!/^[0-9]{1,5}$/.test(raw!) || Number(raw) < 1) {
    throw fail('CATALOG_AUDIT_RETENTION_DAYS must be a whole number of days, 1 or more', 'CATALOG_AUDIT_RETENTION_DAYS');
  }
  return Number(raw);
}
