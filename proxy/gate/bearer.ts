/**
 * Reads `Authorization: Bearer <key>` (RFC 6750 §2.1). A header that is present but not a bearer
 * credential counts as a refused credential, not as no credential: a caller that sent something
 * wrong learns it (401 invalid_token) instead of being served as some other caller kind.
 */
export type BearerCredential = { kind: 'absent' } | { kind: 'malformed' } | { kind: 'key'; key: string };

const BEARER = /^Bearer +([\x21-\x7e]+) *$/i;

export function readBearer(header: string | undefined): BearerCredential {
  if (header === undefined) return { kind: 'absent' };
  const match = BEARER.exec(header);
  return match ? { kind: 'key', key: match[1] } : { kind: 'malformed' };
}
