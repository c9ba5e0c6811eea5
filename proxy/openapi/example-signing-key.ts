/**
 * The Ed25519 key pair the OpenAPI examples are signed with: made from a fixed, published seed so
 * the examples (public key, fingerprint, signature) are the same on every run. It signs nothing but
 * the example catalog; never use it for a real one (`catalog signing init` makes a real key).
 *
 * @example
 *   const keys = exampleSigningKeys();
 *   keys.privatePem   // '-----BEGIN PRIVATE KEY-----\n...' for `catalog compile --sign-key`
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

/** PKCS#8 DER of an Ed25519 private key, up to its 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function exampleSigningKeys(): { privateKey: KeyObject; publicKey: KeyObject; privatePem: string } {
  const seed = createHash('sha256').update('catalog openapi example signing key').digest();
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  return { privateKey, publicKey: createPublicKey(privateKey), privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string };
}
