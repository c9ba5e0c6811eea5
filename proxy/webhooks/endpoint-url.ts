/**
 * The URL a webhook endpoint is POSTed to, checked when the operator registers it: https only, no
 * user:password (it would be stored, listed and logged like any URL), no fragment, at most
 * MAX_URL_LENGTH characters. Plain http is accepted only to a loopback host and only when the
 * operator turned on `CATALOG_WEBHOOKS_ALLOW_LOOPBACK_HTTP=1`, a setting for tests and local
 * development: a receiver elsewhere must terminate TLS, or the signed summaries travel in clear.
 */
import { CatalogError } from '../../snapshots/errors.js';

export const MAX_URL_LENGTH = 2048;
/**
 * The https form the document states and the API enforces: a DNS name whose last label starts with
 * a letter (no IP literal: a receiver has a name its certificate is for), an optional port, a path
 * and query without spaces or a fragment.
 */
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
export const HTTPS_URL_PATTERN = new RegExp(`^https://(?:${LABEL}\\.)*[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?::[1-9][0-9]{0,3})?(?:/[^\\s#]*)?$`);
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

export function parseEndpointUrl(raw: unknown, options: { allowLoopbackHttp: boolean }, field = 'url'): string {
  const bad = (why: string) => new CatalogError('invalid_parameter', `${field} ${why}`, { parameter: field });
  if (typeof raw !== 'string' || raw.length === 0) throw bad('must be an https:// URL');
  if (raw.length > MAX_URL_LENGTH) throw bad(`must be at most ${MAX_URL_LENGTH} characters`);
  if (raw.startsWith('https://') && !raw.includes('@') && !raw.includes('#') && !HTTPS_URL_PATTERN.test(raw)) {
    throw bad('must be https://<host name>[:port][/path]: a DNS name (not an IP address), no spaces');
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw bad('must be an absolute https:// URL');
  }
  if (url.username !== '' || url.password !== '') throw bad('must not carry a user name or password: authenticate the request with its signature');
  if (url.hash !== '' || raw.includes('#')) throw bad('must not have a #fragment');
  if (url.protocol === 'http:') {
    if (!options.allowLoopbackHttp) throw bad('must use https:// (plain http is allowed only to a loopback host with CATALOG_WEBHOOKS_ALLOW_LOOPBACK_HTTP=1, for tests)');
    if (!LOOPBACK_HOSTS.has(url.hostname)) throw bad('may use http:// only to 127.0.0.1, [::1] or localhost');
  } else if (url.protocol !== 'https:') {
    throw bad('must use https://');
  }
  return url.href;
}
