/**
 * `catalog webhooks add|list|delete|rotate-secret`: webhook endpoints on the proxy's state (a SQLite
 * file, or the fleet's PostgreSQL: cli/state-access.ts), like `catalog keys`; no Redis needed.
 * The signing secret is printed once (add, rotate-secret); list never shows it.
 * Plain http to a loopback host is accepted only with CATALOG_WEBHOOKS_ALLOW_LOOPBACK_HTTP=1 (tests).
 */
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { parseTenant } from '../../proxy/keys/validate.js';
import type { StateFlags } from '../../proxy/state/state-location.js';
import { parseDescription } from '../../proxy/webhooks/answers.js';
import { parseEndpointUrl } from '../../proxy/webhooks/endpoint-url.js';
import { parseEndpointId } from '../../proxy/webhooks/ids.js';
import { loadWebhookSettings } from '../../proxy/webhooks/settings.js';
import type { EndpointWithSecret, WebhookStore } from '../../proxy/webhooks/store.js';
import { STATE_OPTION, withCliState } from '../state-access.js';
import { asUsage, formatTable } from './keys.js';

type StateOption = StateFlags & { json?: boolean };

export function registerWebhooks(program: Command, io: CliIO): void {
  const hooks = program.command('webhooks').description('add, list, delete webhook endpoints and rotate their signing secrets');

  hooks.command('add')
    .description('register an https:// endpoint for a tenant; its signing secret is printed this once')
    .option(...STATE_OPTION)
    .requiredOption('--tenant <name>', 'tenant the endpoint belongs to')
    .requiredOption('--url <url>', 'https:// URL the events are POSTed to')
    .option('--description <text>', 'a note for people')
    .option('--json', 'print one JSON line')
    .action(async (opts: StateOption & { tenant: string; url: string; description?: string }) => {
      const request = {
        tenant: asUsage(() => parseTenant(opts.tenant, '--tenant')),
        url: asUsage(() => parseEndpointUrl(opts.url, loadWebhookSettings(process.env), '--url')),
        description: asUsage(() => parseDescription(opts.description, '--description')),
      };
      await withWebhooks(io, opts, async (store) => printWithSecret(io, await store.create(request), opts.json === true));
    });

  hooks.command('list')
    .description('list endpoints (never their secrets)')
    .option(...STATE_OPTION)
    .option('--tenant <name>', 'only this tenant\'s endpoints')
    .option('--json', 'print one JSON line per endpoint')
    .action(async (opts: StateOption & { tenant?: string }) => {
      const tenant = opts.tenant === undefined ? undefined : asUsage(() => parseTenant(opts.tenant, '--tenant'));
      await withWebhooks(io, opts, async (store) => {
        const endpoints = await store.list(tenant === undefined ? {} : { tenant });
        if (opts.json) {
          for (const e of endpoints) io.stdout.write(JSON.stringify(e) + '\n');
          return;
        }
        if (endpoints.length === 0) {
          io.stdout.write('No webhook endpoints.\n');
          return;
        }
        io.stdout.write(formatTable([
          ['ENDPOINT ID', 'TENANT', 'CREATED', 'SECRET ROTATED', 'URL'],
          ...endpoints.map((e) => [e.endpointId, e.tenant, e.createdAt, e.secretRotatedAt ?? '-', e.url]),
        ]));
      });
    });

  hooks.command('delete')
    .description('delete an endpoint; its pending deliveries are cancelled')
    .argument('<endpointId>', 'the endpoint id (whe_…)')
    .option(...STATE_OPTION)
    .option('--json', 'print the deleted endpoint as one JSON line')
    .action(async (endpointId: string, opts: StateOption) => {
      const id = asUsage(() => parseEndpointId(endpointId, 'endpointId'));
      await withWebhooks(io, opts, async (store) => {
        const e = await store.delete(id);
        io.stdout.write(opts.json ? JSON.stringify(e) + '\n' : `Deleted webhook endpoint ${e.endpointId} (tenant ${e.tenant}, ${e.url}).\n`);
      });
    });

  hooks.command('rotate-secret')
    .description('replace an endpoint\'s signing secret; the new one is printed this once')
    .argument('<endpointId>', 'the endpoint id (whe_…)')
    .option(...STATE_OPTION)
    .option('--json', 'print one JSON line')
    .action(async (endpointId: string, opts: StateOption) => {
      const id = asUsage(() => parseEndpointId(endpointId, 'endpointId'));
      await withWebhooks(io, opts, async (store) => printWithSecret(io, await store.rotateSecret(id), opts.json === true));
    });
}

function printWithSecret(io: CliIO, e: EndpointWithSecret, json: boolean): void {
  if (json) {
    io.stdout.write(JSON.stringify(e) + '\n');
    return;
  }
  io.stdout.write(
    `Webhook endpoint ${e.endpointId} for tenant ${e.tenant}: ${e.url}\n\n` +
    `Signing secret (give it to the partner; this is the only time it is shown):\n\n  ${e.secret}\n`,
  );
}

function withWebhooks(io: CliIO, flags: StateFlags, run: (store: WebhookStore) => Promise<void>): Promise<void> {
  return withCliState(flags, io.env, {}, ({ webhooks }) => run(webhooks));
}
