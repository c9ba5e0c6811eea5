/**
 * The two request headers a computed (not stored) JSON answer negotiates on: `If-None-Match` and
 * `Accept-Encoding` (RFC 9110 §13.1.2 and §12.5.3).
 *
 * @example
 *   etagMatches('W/"abc", "def"', '"def"')   // true (If-None-Match uses the weak comparison)
 *   acceptsGzip('br, gzip;q=0')              // false
 */

export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const wanted = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((raw) => {
    const tag = raw.trim();
    return tag === '*' || tag.replace(/^W\//, '') === wanted;
  });
}

export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (acceptEncoding === undefined) return false;
  let gzip: number | null = null;
  let star: number | null = null;
  for (const part of acceptEncoding.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) q = Number(m[1]);
    }
    if (coding === 'gzip' || coding === 'x-gzip') gzip = q;
    else if (coding === '*') star = q;
  }
  const q = gzip ?? star ?? 0;
  return Number.isFinite(q) && q > 0;
}
