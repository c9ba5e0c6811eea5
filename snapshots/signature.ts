/**
 * Ed25519 signatures of a snapshot manifest (node:crypto), detached in `manifest.ndjson.sig`.
 *
 * What is signed is a short statement naming the snapshot id and the manifest's SHA-256 and size,
 * not the manifest bytes themselves: Ed25519 (RFC 8032, as Node implements it) signs a message held
 * whole in memory, and a manifest of a million-card catalog is hundreds of megabytes. The statement
 * binds the manifest as firmly (SHA-256 is collision resistant), and the manifest binds every object
 * and bulk file by their SHA-256. The statement is plain text so anyone can check it with openssl
 * (docs/mirroring.md shows how).
 *
 * @example
 *   const keys = generateSigningKeys();
 *   const sig = signManifest(keys.privateKey, { snapshotId, sha256, size });
 *   checkManifestSignature(keys.publicKey, JSON.stringify(sig), { snapshotId, sha256, size })  // { ok: true, ... }
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CatalogError } from './errors.js';

export const SIGNATURE_FORMAT = 'catalog-manifest-signature';
export const SIGNATURE_VERSION = 1;

/** What a signature vouches for: one manifest file of one snapshot. */
export interface SignedManifest {
  snapshotId: string;
  /** SHA-256 hex of the manifest file bytes. */
  sha256: string;
  size: number;
}

/** The content of `manifest.ndjson.sig` (one JSON line). */
export interface ManifestSignature extends SignedManifest {
  format: typeof SIGNATURE_FORMAT;
  version: typeof SIGNATURE_VERSION;
  algorithm: 'ed25519';
  /** Fingerprint of the signing key's public half (informative: the signature check decides). */
  keyFingerprint: string;
  /** Base64 Ed25519 signature of `signedStatement(...)`. */
  signature: string;
}

export type SignatureCheck =
  | { ok: true; keyFingerprint: string }
  | { ok: false; reason: 'unsigned' | 'malformed' | 'wrong_key' | 'tampered' | 'bad_signature'; message: string };

/**
 * The exact bytes the signature covers.
 *
 * @example signedStatement({ snapshotId: 'S', sha256: 'ab…', size: 10 })
 *   // 'catalog-manifest-signature/1\nsnapshot S\nsha256 ab…\nsize 10\n'
 */
export function signedStatement(m: SignedManifest): Buffer {
  return Buffer.from(`${SIGNATURE_FORMAT}/${SIGNATURE_VERSION}\nsnapshot ${m.snapshotId}\nsha256 ${m.sha256}\nsize ${m.size}\n`, 'utf8');
}

/**
 * `sha256:` + hex SHA-256 of the public key's DER (SubjectPublicKeyInfo) encoding.
 *
 * @example keyFingerprint(publicKey)  // 'sha256:5c0f…'
 */
export function keyFingerprint(publicKey: KeyObject): string {
  return `sha256:${createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex')}`;
}

export function generateSigningKeys(): { privateKey: KeyObject; publicKey: KeyObject; privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey,
    publicKey,
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }) as string,
  };
}

export function signManifest(privateKey: KeyObject, manifest: SignedManifest): ManifestSignature {
  return {
    format: SIGNATURE_FORMAT,
    version: SIGNATURE_VERSION,
    algorithm: 'ed25519',
    snapshotId: manifest.snapshotId,
    sha256: manifest.sha256,
    size: manifest.size,
    keyFingerprint: keyFingerprint(createPublicKey(privateKey)),
    signature: sign(null, signedStatement(manifest), privateKey).toString('base64'),
  };
}

function parseSignature(text: string): ManifestSignature | null {
  try {
    const v = JSON.parse(text) as Partial<ManifestSignature>;
    const ok = v.format === SIGNATURE_FORMAT && v.version === SIGNATURE_VERSION && v.algorithm === 'ed25519' &&
      typeof v.snapshotId === 'string' && typeof v.sha256 === 'string' && typeof v.size === 'number' &&
      typeof v.keyFingerprint === 'string' && typeof v.signature === 'string';
    return ok ? (v as ManifestSignature) : null;
  } catch {
    return null;
  }
}

/**
 * Checks a signature file against a manifest as it really is (`actual`: its id, hash and size) and a
 * trusted public key. Each failure names its cause: no signature, a signature by another key, a
 * manifest changed after signing, or a signature that does not verify.
 */
export function checkManifestSignature(publicKey: KeyObject, signatureText: string | null, actual: SignedManifest): SignatureCheck {
  const expected = keyFingerprint(publicKey);
  if (signatureText === null) {
    return { ok: false, reason: 'unsigned', message: `snapshot ${actual.snapshotId} is not signed (no manifest signature)` };
  }
  const sig = parseSignature(signatureText);
  if (sig === null) {
    return { ok: false, reason: 'malformed', message: `snapshot ${actual.snapshotId}: the manifest signature file is not a ${SIGNATURE_FORMAT} v${SIGNATURE_VERSION}` };
  }
  if (sig.keyFingerprint !== expected) {
    return {
      ok: false, reason: 'wrong_key',
      message: `snapshot ${actual.snapshotId} is signed by another key (${sig.keyFingerprint}), not by the public key given (${expected})`,
    };
  }
  if (sig.snapshotId !== actual.snapshotId || sig.sha256 !== actual.sha256 || sig.size !== actual.size) {
    return {
      ok: false, reason: 'tampered',
      message: `snapshot ${actual.snapshotId}: the manifest does not match its signature (signed: ${sig.snapshotId}, ${sig.size} bytes, sha256 ${sig.sha256}; ` +
        `found: ${actual.size} bytes, sha256 ${actual.sha256}); it was changed after signing`,
    };
  }
  let valid = false;
  try {
    valid = verify(null, signedStatement(actual), publicKey, Buffer.from(sig.signature, 'base64'));
  } catch {
    valid = false;
  }
  if (!valid) {
    return { ok: false, reason: 'bad_signature', message: `snapshot ${actual.snapshotId}: the manifest signature does not verify with the public key ${expected}` };
  }
  return { ok: true, keyFingerprint: expected };
}

function readKeyFile(path: string, option: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new CatalogError('usage', `${option} ${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { option });
  }
}

/** An Ed25519 public key from a PEM file, or a `usage` error naming the option. */
export function loadPublicKey(path: string, option = '--public-key'): KeyObject {
  return parsePublicKey(readKeyFile(path, option), `${option} ${path}`);
}

export function parsePublicKey(pem: string, what: string): KeyObject {
  // createPublicKey would derive the public half from a private key; refusing it keeps operators
  // from handing the private key around where the public one belongs.
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem)) throw new CatalogError('usage', `${what} is a private key; give the public key (${'signing-key.pub.pem'})`);
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    throw new CatalogError('usage', `${what} is not a PEM public key (make one with \`catalog signing init\`)`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new CatalogError('usage', `${what} is a ${key.asymmetricKeyType} key; an Ed25519 key is needed`);
  return key;
}

/** An Ed25519 private key from a PEM file. Its content is never put in a message. */
export function loadPrivateKey(path: string, option = '--sign-key'): KeyObject {
  const pem = readKeyFile(path, option);
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new CatalogError('usage', `${option} ${path} is not a PEM private key (make one with \`catalog signing init\`)`, { option });
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new CatalogError('usage', `${option} ${path} is a ${key.asymmetricKeyType} key; an Ed25519 key is needed`, { option });
  return key;
}
