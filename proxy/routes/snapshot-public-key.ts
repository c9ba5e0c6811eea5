/**
 * GET /v1/snapshot/public-key — the Ed25519 public key (PEM) that verifies this server's manifests,
 * with its fingerprint in `X-Key-Fingerprint`. Partners should pin the key they got out of band and
 * compare fingerprints: a key fetched over the same channel as the manifest proves nothing alone.
 */
import type { KeyObject } from 'node:crypto';
import type { Hono } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import { keyFingerprint } from '../../snapshots/signature.js';
import type { ProxyEnv } from '../env.js';
import { rejectUnknownParams } from '../http/params.js';
import { queryOf } from '../serve-object/validate.js';
import { respondBody } from '../snapshot-files/respond-json.js';

export function registerPublicKeyRoute(router: Hono<ProxyEnv>, publicKey: KeyObject | null): void {
  const pem = publicKey ? (publicKey.export({ type: 'spki', format: 'pem' }) as string) : null;
  const fingerprint = publicKey ? keyFingerprint(publicKey) : null;
  router.get('/v1/snapshot/public-key', (c) => {
    c.set('routePattern', '/v1/snapshot/public-key');
    rejectUnknownParams(queryOf(c), []);
    if (pem === null || fingerprint === null) throw new CatalogError('not_found', 'this server publishes no signing key (catalog serve --public-key)');
    return respondBody(c, pem, 'application/x-pem-file', { 'X-Key-Fingerprint': fingerprint });
  });
}
