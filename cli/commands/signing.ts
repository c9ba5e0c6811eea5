/**
 * `catalog signing init --out <dir>`: makes the Ed25519 key pair that signs snapshot manifests.
 * The private key is written with mode 0600 and never printed; the public key is what partners get
 * (and what `catalog serve --public-key` publishes). Existing files are never overwritten: replacing
 * a signing key is a decision partners must hear about.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { CatalogError } from '../../snapshots/errors.js';
import { generateSigningKeys, keyFingerprint } from '../../snapshots/signature.js';
import { makeDirsSync } from '../../snapshots/store/make-dirs.js';

export const PRIVATE_KEY_FILE = 'signing-key.pem';
export const PUBLIC_KEY_FILE = 'signing-key.pub.pem';

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

export function registerSigning(program: Command, io: CliIO): void {
  const signing = program.command('signing').description('manage the Ed25519 key that signs snapshot manifests');
  signing.command('init')
    .description(`make a signing key pair: <dir>/${PRIVATE_KEY_FILE} (mode 0600) and <dir>/${PUBLIC_KEY_FILE}`)
    .requiredOption('--out <dir>', 'folder for the two key files (created if missing)')
    .action((opts: { out: string }) => {
      makeDirsSync(opts.out);
      const keys = generateSigningKeys();
      const privatePath = join(opts.out, PRIVATE_KEY_FILE);
      const publicPath = join(opts.out, PUBLIC_KEY_FILE);
      writeNew(privatePath, keys.privatePem, 0o600);
      writeNew(publicPath, keys.publicPem, 0o644);
      io.stdout.write(
        `private key: ${privatePath} (mode 0600; keep it secret, pass it to catalog compile --sign-key)\n` +
        `public key:  ${publicPath} (give it to partners; catalog serve --public-key publishes it)\n` +
        `fingerprint: ${keyFingerprint(keys.publicKey)}\n`,
      );
    });
}
