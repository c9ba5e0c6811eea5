/** What the store knows about a key, as shown to operators (never the key or its hash). */
import type { Tier } from '../tiers.js';

export interface KeyRecord {
  keyId: string;
  tenant: string;
  tier: Tier;
  /** ISO timestamps, `YYYY-MM-DDTHH:MM:SS.mmmZ`. */
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  /** The key ID that replaced this one when it was rotated. */
  replacedBy: string | null;
}

/** A freshly minted key: the only value that ever carries the key itself. */
export interface MintedKey {
  key: string;
  keyId: string;
  tenant: string;
  tier: Tier;
  createdAt: string;
  expiresAt: string | null;
}

export type KeyStatus = 'active' | 'revoked' | 'expired';

export function keyStatus(record: KeyRecord, nowMs: number): KeyStatus {
  if (record.revokedAt !== null) return 'revoked';
  if (record.expiresAt !== null && Date.parse(record.expiresAt) <= nowMs) return 'expired';
  return 'active';
}
