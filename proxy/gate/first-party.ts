/**
 * Same-origin anonymous access (API.md §4, caller kind 4) for the service's own web pages:
 * `Origin` is one of CATALOG_PUBLIC_ORIGINS, or the browser says `Sec-Fetch-Site: same-origin`.
 * Off when no origin is configured. These headers are set by browsers, not proven by them: any
 * client can send them, so this kind gets the public read routes only, never admin or audit.
 */
export function isFirstParty(origins: readonly string[], origin: string | undefined, fetchSite: string | undefined): boolean {
  if (origins.length === 0) return false;
  if (origin !== undefined && origins.includes(origin)) return true;
  return fetchSite === 'same-origin';
}
