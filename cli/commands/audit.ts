/**
 * `catalog audit <keyId>`: a key's audit rows from the proxy's state (the SQLite file, or the
 * fleet's PostgreSQL after draining the Redis stream: cli/state-access.ts), newest first, as a
 * table or (with --json) one JSON object per line. Only parses options and calls proxy/audit.
 */
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { noSuchKey } from '../../proxy/keys/store.js';
import { parseInstant } from '../../proxy/keys/validate.js';
import { CatalogError, isCatalogError } from '../../snapshots/errors.js';
import type { StateFlags } from '../../proxy/state/state-location.js';
import { REDIS_OPTION, STATE_OPTION, withCliState } from '../state-access.js';
import { formatTable } from './keys.js';

const MAX_LIMIT = 100_000;

export function registerAudit(program: Command, io: CliIO): void {
  program.command('audit')
    .description('print the audit rows of a key, newest first')
    .argument('<keyId>', 'the 8-character key ID')
    .option(...STATE_OPTION)
    .option(...REDIS_OPTION)
    .option('--since <time>', 'rows at or after this time (YYYY-MM-DD or ISO timestamp)')
    .option('--until <time>', 'rows before this time (YYYY-MM-DD or ISO timestamp)')
    .option('--limit <n>', 'at most this many rows', '20')
    .option('--json', 'one JSON object per line (NDJSON)')
    .action(async (keyId: string, opts: StateFlags & { since?: string; until?: string; limit: string; json?: boolean }) => {
      const sinceMs = opts.since === undefined ? null : instant(opts.since, '--since');
      const untilMs = opts.until === undefined ? null : instant(opts.until, '--until');
      if (!/^[0-9]{1,6}$/.test(opts.limit) || Number(opts.limit) < 1 || Number(opts.limit) > MAX_LIMIT) {
        throw new CatalogError('usage', `--limit must be an integer from 1 to ${MAX_LIMIT}`);
      }
      await withCliState(opts, io.env, {}, async ({ keys, audit, where }) => {
        if ((await keys.get(keyId)) === null) throw noSuchKey(keyId, ` in ${where}`);
        const { rows, total } = await audit.list({ keyId, sinceMs, untilMs, offset: 0, limit: Number(opts.limit) });
        if (opts.json) {
          for (const row of rows) io.stdout.write(JSON.stringify(row) + '\n');
          return;
        }
        if (rows.length === 0) {
          io.stdout.write(`No audit rows for key ${keyId}.\n`);
          return;
        }
        io.stdout.write(formatTable([
          ['TIMESTAMP', 'STATUS', 'ROUTE', 'PATH', 'BYTES', 'MS', 'SNAPSHOT', 'REQUEST ID'],
          ...rows.map((r) => [r.timestamp, String(r.status), r.route, r.path, r.bytes === null ? '-' : String(r.bytes), String(r.durationMs), r.snapshotId ?? '-', r.requestId]),
        ]));
        io.stdout.write(`${rows.length} of ${total} rows, newest first.\n`);
      });
    });
}

function instant(raw: string, name: string): number {
  try {
    return Date.parse(parseInstant(raw, name));
  } catch (err) {
    if (isCatalogError(err)) throw new CatalogError('usage', err.message);
    throw err;
  }
}
