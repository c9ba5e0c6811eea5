/**
 * GET /v1/snapshot/objects/<key> — one stored object exactly as the manifest lists it (the gzip
 * bytes, `Content-Type: application/gzip`, ETag = its SHA-256), for mirrors: they fetch by manifest
 * key and check the hash, with no URL-to-key mapping to get wrong. `?snapshot=<id>` pins a kept
 * snapshot so a sync reads one snapshot throughout. Keys are checked segment by segment before
 * they touch the store.
 *
 * The key may come with its slashes as they are or percent-encoded (`v1%2Fcards%2F...`): OpenAPI
 * clients encode `/` in a path parameter, so the key is decoded exactly once; what it decodes to
 * must still be a manifest key (so `%2E%2E` and `%252F` are refused like `..`).
 */
import type { Hono } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import { isObjectKey } from '../../snapshots/keys.js';
import type { ProxyEnv } from '../env.js';
import { rejectUnknownParams } from '../http/params.js';
import { respond } from '../http/response-headers.js';
import { ifNoneMatchHits } from '../serve-object/etag.js';
import type { ObjectServer } from '../serve-object/object-server.js';
import { READ_CACHE_CONTROL } from '../serve-object/respond-object.js';
import { queryOf } from '../serve-object/validate.js';
import type { SnapshotFiles } from '../snapshot-files/snapshot-files.js';

const PREFIX = '/v1/snapshot/objects/';

export function registerObjectRoute(router: Hono<ProxyEnv>, serve: ObjectServer, files: SnapshotFiles): void {
  router.get(`${PREFIX}*`, async (c) => {
    c.set('routePattern', '/v1/snapshot/objects/*');
    const query = queryOf(c);
    rejectUnknownParams(query, ['snapshot']);
    const key = objectKeyOf(c.req.url);
    if (key === null || !isObjectKey(key)) {
      throw new CatalogError('invalid_parameter', 'the object key must be a manifest key such as v1/cards/<id>/30d.json.gz', { parameter: 'key' });
    }
    const reader = await files.pin(c, query);
    const obj = await serve.loader.load(reader, key);
    if (obj === null) throw new CatalogError('not_found', `snapshot ${reader.id} has no object ${key}`);
    const etag = `"${obj.sha256}"`;
    const headers: Record<string, string> = {
      ETag: etag, 'Cache-Control': READ_CACHE_CONTROL, 'Content-Type': 'application/gzip', 'X-Snapshot-Id': reader.id,
    };
    if (ifNoneMatchHits(c.req.header('if-none-match'), etag)) return respond(c, null, 304, headers, null);
    headers['Content-Length'] = String(obj.gzip.length);
    return respond(c, c.req.method === 'HEAD' ? null : obj.gzip, 200, headers, obj.gzip.length);
  });
}

/** The key as sent (the raw URL, not Hono's partly decoded path), decoded once; null if it is not valid percent-encoding. */
function objectKeyOf(url: string): string | null {
  const start = url.indexOf(PREFIX, url.indexOf('://') + 3);
  const end = url.search(/[?#]/);
  try {
    return decodeURIComponent(url.slice(start + PREFIX.length, end < 0 ? undefined : end));
  } catch {
    return null;
  }
}
