/**
 * `catalog keys mint|list|revoke|rotate`: key administration on the proxy's state (a SQLite file,
 * created and migrated on first use, or the fleet's PostgreSQL: cli/state-access.ts). A key is
 * printed once, when minted; list never shows keys or hashes. This file only parses options and
 * calls proxy/keys; output goes through the CliIO.
 */
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { keyStatus, type MintedKey } from '../../proxy/keys/record.js';
import { parseExpiry, parseTenant, parseTier } from '../../proxy/keys/validate.js';
import type { StateFlags } from '../../proxy/state/state-location.js';
import { CatalogError, isCatalogError } from '../../snapshots/errors.js';
import { REDIS_OPTION, STATE_OPTION, withCliState } from '../state-access.js';

type StateOption = StateFlags;

export function registerKeys(program: Command, io: CliIO): void {
  const keys = program.command('keys').description('mint, list, revoke and rotate partner API keys');

  keys.command('mint')
    .description('mint a key for a tenant; the key is printed this once')
    .option(...STATE_OPTION)
    .option(...REDIS_OPTION)
    .requiredOption('--tenant <name>', 'tenant the key belongs to')
    .option('--tier <tier>', 'rate-limit tier: free, standard or enterprise', 'free')
    .option('--expires <date>', 'expiry: YYYY-MM-DD (midnight UTC) or an ISO timestamp')
    .option('--json', 'print one JSON line')
    .action(async (opts: StateOption & { tenant: string; tier: string; expires?: string; json?: boolean }) => {
      const request = {
        tenant: asUsage(() => parseTenant(opts.tenant, '--tenant')),
        tier: asUsage(() => parseTier(opts.tier, '--tier')),
        expiresAt: opts.expires === undefined ? null : asUsage(() => parseExpiry(opts.expires, Date.now(), '--expires')),
      };
      await withCliState(opts, io.env, {}, async ({ keys: store }) => printMinted(io, await store.mint(request), opts.json === true));
    });

  keys.command('list')
    .description('list keys (never the keys themselves)')
    .option(...STATE_OPTION)
    .option(...REDIS_OPTION)
    .option('--tenant <name>', 'only this tenant\'s keys')
    .option('--json', 'print one JSON line per key')
    .action(async (opts: StateOption & { tenant?: string; json?: boolean }) => {
      const tenant = opts.tenant === undefined ? undefined : asUsage(() => parseTenant(opts.tenant, '--tenant'));
      await withCliState(opts, io.env, {}, async ({ keys: store }) => {
        const records = await store.list(tenant === undefined ? {} : { tenant });
        if (opts.json) {
          for (const r of records) io.stdout.write(JSON.stringify({ ...r, status: keyStatus(r, Date.now()) }) + '\n');
          return;
        }
        if (records.length === 0) {
          io.stdout.write('No keys.\n');
          return;
        }
        io.stdout.write(formatTable([
          ['KEY ID', 'TENANT', 'TIER', 'STATUS', 'CREATED', 'EXPIRES', 'REVOKED'],
          ...records.map((r) => [r.keyId, r.tenant, r.tier, keyStatus(r, Date.now()), r.createdAt, r.expiresAt ?? '-', r.revokedAt ?? '-']),
        ]));
      });
    });

  keys.command('revoke')
    .description('revoke a key; every server process refuses it from the next request (fleet: within a second)')
    .argument('<keyId>', 'the 8-character key ID')
    .option(...STATE_OPTION)
    .option(...REDIS_OPTION)
    .option('--json', 'print the revoked key\'s record as one JSON line')
    .action(async (keyId: string, opts: StateOption & { json?: boolean }) => {
      await withCliState(opts, io.env, { announces: true }, async ({ keys: store }) => {
        const record = await store.revoke(keyId);
        io.stdout.write(opts.json ? JSON.stringify(record) + '\n' : `Revoked key ${record.keyId} (tenant ${record.tenant}) at ${record.revokedAt}.\n`);
      });
    });

  keys.command('rotate')
    .description('mint a replacement key (same tenant and tier) and revoke the old one')
    .argument('<keyId>', 'the key ID to replace')
    .option(...STATE_OPTION)
    .option(...REDIS_OPTION)
    .option('--expires <date>', 'expiry of the new key: YYYY-MM-DD or an ISO timestamp')
    .option('--json', 'print one JSON line')
    .action(async (keyId: string, opts: StateOption & { expires?: string; json?: boolean }) => {
      const expiresAt = opts.expires === undefined ? null : asUsage(() => parseExpiry(opts.expires, Date.now(), '--expires'));
      await withCliState(opts, io.env, { announces: true }, async ({ keys: store }) => {
        const { minted, revoked } = await store.rotate(keyId, { expiresAt });
        if (opts.json) {
          io.stdout.write(JSON.stringify({ ...minted, replaces: revoked.keyId }) + '\n');
          return;
        }
        printMinted(io, minted, false);
        io.stdout.write(`Revoked the old key ${revoked.keyId} at ${revoked.revokedAt}.\n`);
      });
    });
}

function printMinted(io: CliIO, minted: MintedKey, json: boolean): void {
  if (json) {
    const { key, keyId, tenant, tier, createdAt, expiresAt } = minted;
    io.stdout.write(JSON.stringify({ key, keyId, tenant, tier, createdAt, expiresAt }) + '\n');
    return;
  }
  io.stdout.write(
    `Key for tenant ${minted.tenant} (tier ${minted.tier}, expires ${minted.expiresAt ?? 'never'}):\n\n` +
    `  ${minted.key}\n\n` +
    `Key ID ${minted.keyId}. This is the only time the key is shown: only its hash is stored.\n`,
  );
}

/** Validation errors of flags are usage errors on the command line (exit 64), not HTTP 400s. */
export function asUsage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (isCatalogError(err) && err.code === 'invalid_parameter') throw new CatalogError('usage', err.message, err.details);
    throw err;
  }
}

/** Left-aligned columns, two spaces apart. */
export function formatTable(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ')).join('\n') + '\n';
}

