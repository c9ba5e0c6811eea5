/**
 * `catalog signing init --out <dir>`: makes the Ed25519 key pair that signs snapshot manifests.
 * The private key is written with mode 0600 and never printed; the public key is what partners get
 * (and what `catalog serve --public-key` publishes). Existing files are never overwritten: replacing
 * a signing key is a decision partners must hear about.
 */
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { createSigningKeyFiles, PRIVATE_KEY_FILE, PUBLIC_KEY_FILE } from '../signing-keys.js';

export function registerSigning(program: Command, io: CliIO): void {
  const signing = program.command('signing').description('manage the Ed25519 key that signs snapshot manifests');
  signing.command('init')
    .description(`make a signing key pair: <dir>/${PRIVATE_KEY_FILE} (mode 0600) and <dir>/${PUBLIC_KEY_FILE}`)
    .requiredOption('--out <dir>', 'folder for the two key files (created if missing)')
    .action((opts: { out: string }) => {
      const { privatePath, publicPath, fingerprint } = createSigningKeyFiles(opts.out);
      io.stdout.write(
        `private key: ${privatePath} (mode 0600; keep it secret, pass it to catalog compile --sign-key)\n` +
        `public key:  ${publicPath} (give it to partners; catalog serve --public-key publishes it)\n` +
        `fingerprint: ${fingerprint}\n`,
      );
    });
}
