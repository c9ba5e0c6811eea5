/**
 * The public showcase `/v1/u/:handle` and `/v1/u/:handle/*` (API.md §4) is reachable without any
 * credential; the routes themselves only know opted-in users, so nothing else can be found there.
 */
const PUBLIC_PATH = /^\/v1\/u\/[^/]+(\/.*)?$/;

export function isPublicPath(path: string): boolean {
  return PUBLIC_PATH.test(path);
}
