/**
 * Entity tags. The gzip representation's tag is the SHA-256 of the stored gzip bytes, the same hash
 * the manifest lists, so a partner mirror serving the same object sends the same ETag. A strong
 * validator must differ per content-coding (RFC 9110 §8.8.3), so the decoded representation gets
 * its own tag with an `-identity` suffix.
 *
 * @example
 *   etagFor('9f…', true)                   // '"9f…"'
 *   ifNoneMatchHits('W/"9f…", "x"', '"9f…"') // true (weak comparison, §13.1.2)
 */
export function etagFor(sha256: string, gzip: boolean): string {
  return gzip ? `"${sha256}"` : `"${sha256}-identity"`;
}

/** If-None-Match uses the weak comparison: `W/` prefixes are ignored on both sides; `*` matches any current representation. */
export function ifNoneMatchHits(header: string | null | undefined, etag: string): boolean {
  if (!header) return false;
  const wanted = opaque(etag);
  for (const raw of header.split(',')) {
    const tag = raw.trim();
    if (tag === '*') return true;
    if (tag.length > 0 && opaque(tag) === wanted) return true;
  }
  return false;
}

function opaque(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}
