/**
 * How an audit entry travels through the Redis stream: a fixed list of field/value pairs (the
 * limiter script appends them, the drainer reads them back). A null is the empty string: no key ID,
 * route or request ID is empty, and neither is a snapshot ID.
 */
import type { AuditEntry } from '../../audit/row.js';

/** Field names in stream order; short, since every entry carries them. */
export const AUDIT_FIELDS = ['k', 't', 'r', 's', 'ts', 'q', 'p', 'b', 'd', 'n'] as const;

/** The values of `entry` in AUDIT_FIELDS order. */
export function auditValues(entry: AuditEntry): string[] {
  return [
    entry.apiKeyId, entry.tenantName, entry.route, String(entry.status), String(entry.timestampMs), entry.requestId,
    entry.path, entry.bytes === null ? '' : String(entry.bytes), String(Math.round(entry.durationMs)), entry.snapshotId ?? '',
  ];
}

/** The values interleaved with their field names, as XADD takes them. */
export function auditFieldPairs(entry: AuditEntry): string[] {
  return auditValues(entry).flatMap((v, i) => [AUDIT_FIELDS[i], v]);
}

/** Reads an entry back from XREADGROUP's flat [field, value, …] list; null when a field is missing. */
export function auditEntryOf(flat: string[]): AuditEntry | null {
  const f = new Map<string, string>();
  for (let i = 0; i + 1 < flat.length; i += 2) f.set(flat[i], flat[i + 1]);
  if (!AUDIT_FIELDS.every((name) => f.has(name))) return null;
  const bytes = f.get('b')!;
  const snapshot = f.get('n')!;
  return {
    apiKeyId: f.get('k')!,
    tenantName: f.get('t')!,
    route: f.get('r')!,
    status: Number(f.get('s')),
    timestampMs: Number(f.get('ts')),
    requestId: f.get('q')!,
    path: f.get('p')!,
    bytes: bytes === '' ? null : Number(bytes),
    durationMs: Number(f.get('d')),
    snapshotId: snapshot === '' ? null : snapshot,
  };
}
