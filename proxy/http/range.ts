/**
 * `Range` and `If-Range` for file downloads (RFC 9110 §14). One range per request: a resumed download
 * asks for the rest of the file (`bytes=N-`). Several ranges in one header are answered with the
 * whole file, which the RFC allows (a server may ignore Range) and no download client needs.
 *
 * @example
 *   parseRange('bytes=100-', 1000)    // { kind: 'partial', start: 100, end: 999 }
 *   parseRange('bytes=-10', 1000)     // { kind: 'partial', start: 990, end: 999 }
 *   parseRange('bytes=2000-', 1000)   // { kind: 'unsatisfiable' }
 *   parseRange('items=1-2', 1000)     // { kind: 'whole' }  (unknown unit: ignored)
 */
import { ifNoneMatchHits } from '../serve-object/etag.js';

export type RangeAnswer = { kind: 'whole' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

const SINGLE = /^bytes=(\d*)-(\d*)$/;

export function parseRange(header: string | null | undefined, size: number): RangeAnswer {
  if (!header) return { kind: 'whole' };
  const m = SINGLE.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'whole' };
  if (m[1] === '') {
    // suffix: the last N bytes
    const n = Number(m[2]);
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size) return { kind: 'unsatisfiable' };
  if (end < start) return { kind: 'whole' };
  return { kind: 'partial', start, end };
}

/**
 * `If-Range` (§13.1.5): the range applies only while the representation is the one the client has.
 * Only strong entity tags can match; a date is never a match here (files are tagged by hash).
 */
export function rangeStillValid(ifRange: string | null | undefined, etag: string): boolean {
  if (!ifRange) return true;
  const tag = ifRange.trim();
  if (tag.startsWith('W/') || !tag.startsWith('"')) return false;
  return ifNoneMatchHits(tag, etag);
}
