/**
 * Identifier rules of API.md §1. Anything that fails them is rejected before a store is touched,
 * so user input never becomes a file path or object key unchecked.
 *
 * @example
 *   isValidId('base1-4')   // true
 *   isValidId('..')        // false
 *   isValidSlug('Lea')     // false (slugs are lowercase; lower-case set codes before checking)
 */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

export function isValidId(value: string): boolean {
  return ID_PATTERN.test(value) && value !== '.' && value !== '..';
}

export function isValidSlug(value: string): boolean {
  return SLUG_PATTERN.test(value);
}

/**
 * Turns a display name into a slug for URLs (artists): diacritics folded, lowercase, runs of
 * anything else collapsed to one hyphen, trimmed to 64 characters.
 *
 * @example slugify('Rebecca Guay') // 'rebecca-guay';  slugify('Hervé') // 'herve';  slugify('林玄泰') // 'u-' + 8 hex digits
 */
export function slugify(name: string): string {
  const folded = name.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
  const slug = folded.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64).replace(/-+$/, '');
  // A name with no Latin letter or digit at all (林玄泰) still needs its own page: name it by a
  // hash of the folded name rather than letting every such artist share one 'unknown' slug.
  return slug.length > 0 ? slug : `u-${fnv1a(folded).toString(16).padStart(8, '0')}`;
}

/** FNV-1a over UTF-16 code units: a small stable hash for slugs, not for security. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
