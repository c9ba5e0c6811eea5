/**
 * Content negotiation for the one coding we store (gzip). RFC 9110 §12.5.3: a coding is acceptable
 * when listed with q > 0, or covered by `*` with q > 0 and not listed itself; `gzip;q=0` refuses it.
 * A request without Accept-Encoding gets identity: the RFC allows any coding then, but plain clients
 * (curl without --compressed, scripts) would receive bytes they did not ask to decode.
 *
 * @example
 *   acceptsGzip('gzip, deflate, br')  // true
 *   acceptsGzip('gzip;q=0, *')        // false
 *   acceptsGzip(undefined)            // false
 */
export function acceptsGzip(header: string | null | undefined): boolean {
  if (!header) return false;
  let gzipQ: number | null = null;
  let starQ: number | null = null;
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName.trim().toLowerCase();
    if (name.length === 0) continue;
    const q = qValue(params);
    // x-gzip is the historical alias (RFC 9110 §8.4.1.3).
    if (name === 'gzip' || name === 'x-gzip') gzipQ = gzipQ === null ? q : Math.max(gzipQ, q);
    else if (name === '*') starQ = q;
  }
  if (gzipQ !== null) return gzipQ > 0;
  return starQ !== null && starQ > 0;
}

function qValue(params: string[]): number {
  for (const p of params) {
    const [k, v] = p.split('=');
    if (k.trim().toLowerCase() !== 'q' || v === undefined) continue;
    const q = Number(v.trim());
    // A malformed weight is read as "not acceptable" rather than guessed upward.
    return Number.isFinite(q) ? q : 0;
  }
  return 1;
}
