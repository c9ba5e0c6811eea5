/**
 * The two files of a manifest signing key pair in one folder: `signing-key.pem` (private, mode 0600)
 * and `signing-key.pub.pem` (public). `catalog signing init` makes a pair and refuses to overwrite
 * one; `catalog demo` makes its pair on the first run and re-uses it on every later one, so a partner
 * who pinned the demo's public key keeps verifying its snapshots. Key contents are never put in a
 * message.
 */
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createPublicKey, type KeyObject } from 'node:crypto';
import { CatalogError } from '../snapshots/errors.js';
import { generateSigningKeys, keyFingerprint, loadPrivateKey, loadPublicKey } from '../snapshots/signature.js';
import { makeDirsSync } from '../snapshots/store/make-dirs.js';

export const PRIVATE_KEY_FILE = 'signing-key.pem';
export const PUBLIC_KEY_FILE = 'signing-key.pub.pem';

export interface SigningKeyFiles {
  privatePath: string;
  publicPath: string;
  privateKey: KeyObject;
  fingerprint: string;
}

/** Creates `path` with `mode`, failing if it exists (O_EXCL), so no key is ever overwritten. */
function writeNew(path: string, content: string, mode: number): void {
  let fd: number;
  try {
    fd = openSync(path, 'wx', mode);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new CatalogError('usage', `${path} already exists; signing init never overwrites a key (move it away first)`);
    throw new CatalogError('io', `cannot create ${path} (${code ?? (err as Error).message})`);
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
}

const pathsIn = (dir: string) => ({ privatePath: join(dir, PRIVATE_KEY_FILE), publicPath: join(dir, PUBLIC_KEY_FILE) });

/** Makes a new pair in `dir` (created if missing); a `usage` error if either file exists. */
export function createSigningKeyFiles(dir: string): SigningKeyFiles {
  makeDirsSync(dir);
  const keys = generateSigningKeys();
  const { privatePath, publicPath } = pathsIn(dir);
  writeNew(privatePath, keys.privatePem, 0o600);
  writeNew(publicPath, keys.publicPem, 0o644);
  return { privatePath, publicPath, privateKey: keys.privateKey, fingerprint: keyFingerprint(keys.publicKey) };
}

/**
 * The pair in `dir`: made when neither file exists, read when both do. One file without the other,
 * or two halves of different pairs, is refused rather than repaired: publishing a public key that
 * does not verify the signatures would break every mirror that pinned it.
 */
export function ensureSigningKeyFiles(dir: string): SigningKeyFiles {
  const { privatePath, publicPath } = pathsIn(dir);
  const hasPrivate = existsSync(privatePath);
  const hasPublic = existsSync(publicPath);
  if (!hasPrivate && !hasPublic) return createSigningKeyFiles(dir);
  if (hasPrivate !== hasPublic) {
    const [present, missing] = hasPrivate ? [privatePath, publicPath] : [publicPath, privatePath];
    throw new CatalogError('usage', `${present} exists but ${missing} does not; restore it, or move ${dir} away to make a new key pair`);
  }
  const privateKey = loadPrivateKey(privatePath, 'the signing key');
  const fingerprint = keyFingerprint(loadPublicKey(publicPath, 'the public key'));
  if (keyFingerprint(createPublicKey(privateKey)) !== fingerprint) {
    throw new CatalogError('usage', `${publicPath} is not the public half of ${privatePath}; restore the matching file, or move ${dir} away to make a new key pair`);
  }
  return { privatePath, publicPath, privateKey, fingerprint };
}
