/**
 * GET /v1/snapshot/public-key — the Ed25519 public key (PEM) that verifies this server's manifests,
 * with its fingerprint in `X-Key-Fingerprint`. Partners should pin the key they got out of band and
 * compare fingerprints: a key fetched over the same channel as the manifest proves nothing alone.
 */
import type { KeyObject } from 'node:crypto';
import type { Context } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import { keyFingerprint } from '../../snapshots/signature.js';
import type { ProxyEnv } from '../env.js';
import { respondBody } from '../snapshot-files/respond-json.js';

export interface PublishedKey {
  pem: string;
  fingerprint: string;
}

/** The PEM and fingerprint, exported once per app rather than per request. */
export function publishedKey(publicKey: KeyObject | null | undefined): PublishedKey | null {
  if (!publicKey) return null;
  return { pem: publicKey.export({ type: 'spki', format: 'pem' }) as string, fingerprint: keyFingerprint(publicKey) };
}

export function answerPublicKey(c: Context<ProxyEnv>, key: PublishedKey | null): Promise<Response> {
  if (key === null) throw new CatalogError('not_found', 'this server publishes no signing key (catalog serve --public-key)');
  return respondBody(c, key.pem, 'application/x-pem-file', { 'X-Key-Fingerprint': key.fingerprint });
}
