/**
 * `catalog mirror --from <baseUrl> --key <key|@file|env:VAR> --to <dir> --public-key <file>`: syncs a
 * partner's mirror folder with the origin's current snapshot (mirror/sync.ts), verified against the
 * partner's copy of the signing key. One summary line on stdout; retries and pauses on stderr.
 */
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { parseIntOption } from '../options.js';
import { createTerminalProgress, formatDuration } from '../progress.js';
import { CatalogError } from '../../snapshots/errors.js';
import { loadPublicKey } from '../../snapshots/signature.js';
import { resolveKey } from '../../mirror/key-spec.js';
import { mirrorSnapshot } from '../../mirror/sync.js';

interface MirrorFlags {
  from: string;
  key: string;
  to: string;
  publicKey: string;
  concurrency: string;
  keep: string;
}

function checkBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CatalogError('usage', `--from must be an http(s) base URL such as https://api.example.com (got "${raw}")`, { option: 'from' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CatalogError('usage', '--from must be an http(s) URL', { option: 'from' });
  if (url.username || url.password) throw new CatalogError('usage', '--from must not carry credentials; give the key with --key', { option: 'from' });
  return url.toString().replace(/\/+$/, '');
}

export function registerMirror(program: Command, io: CliIO): void {
  program
    .command('mirror')
    .description('sync a mirror folder (servable by nginx) with the origin\'s current snapshot, verifying the signature and every hash')
    .requiredOption('--from <baseUrl>', 'the partner API base URL, e.g. https://api.example.com')
    .requiredOption('--key <key|@file|env:VAR>', 'API key: the key, @file holding it, or env:VAR naming a variable')
    .requiredOption('--to <dir>', 'mirror folder (created if missing; must be empty or an earlier mirror)')
    .requiredOption('--public-key <file>', 'the catalog\'s Ed25519 public key (PEM) the manifest must be signed with')
    .option('--concurrency <n>', 'parallel downloads', '8')
    .option('--keep <n>', 'snapshots kept in the mirror, current included', '2')
    .action(async (flags: MirrorFlags) => {
      const from = checkBaseUrl(flags.from);
      const key = resolveKey(flags.key, io.env);
      const publicKey = loadPublicKey(flags.publicKey);
      const progress = createTerminalProgress(io);
      try {
        const s = await mirrorSnapshot({
          from, key, to: flags.to, publicKey, progress,
          concurrency: parseIntOption('--concurrency', flags.concurrency, 1, 64),
          keep: parseIntOption('--keep', flags.keep, 1),
        });
        progress.finish();
        if (s.upToDate) {
          io.stdout.write(`mirror ${flags.to} is up to date at ${s.snapshotId} (signature checked)\n`);
          return;
        }
        io.stdout.write(
          `mirrored ${s.snapshotId}: ${s.objects} objects (${s.fetched} fetched, ${(s.fetchedBytes / 1024).toFixed(0)} KiB; ` +
            `${s.linked} unchanged, linked; ${s.resumed} resumed), bulk files ${s.bulkFetched} fetched, ${s.bulkLinked} linked; ` +
            `signature and every hash verified in ${formatDuration(s.durationMs)} -> ${flags.to}/current` +
            `${s.previousId ? ` (was ${s.previousId})` : ''}\n`,
        );
      } finally {
        progress.finish();
      }
    });
}
