/**
 * `catalog webhooks` through its real entry, on a SQLite state file and on the fleet's PostgreSQL
 * (`--state postgres://…`): the secret printed once, list without it, rotate, delete.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { describeOnEachState } from './harness.js';

const dir = tempDir('catalog-webhooks-cli-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeOnEachState('catalog webhooks', (_open, where) => {
  let state: string;
  beforeAll(() => {
    const { kind, world } = where();
    state = kind === 'sqlite' ? join(dir, 'state.sqlite') : world!.pgUrl;
  });

  it('add, list, rotate-secret, delete', async () => {
    const added = await runCli(['webhooks', 'add', '--state', state, '--tenant', 'acme', '--url', 'https://hooks.acme.example/catalog', '--json']);
    expect(added.code).toBe(0);
    const made = JSON.parse(added.stdout);
    expect(made.secret).toMatch(/^whsec_/);
    const listed = await runCli(['webhooks', 'list', '--state', state]);
    expect(listed.stdout).toContain(made.endpointId);
    expect(listed.stdout).toContain('https://hooks.acme.example/catalog');
    expect(listed.stdout).not.toContain(made.secret);
    const rotated = await runCli(['webhooks', 'rotate-secret', made.endpointId, '--state', state]);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(/only time it is shown\):\n\n {2}whsec_\S{43}\n/);
    expect(rotated.stdout).not.toContain(made.secret);
    const deleted = await runCli(['webhooks', 'delete', made.endpointId, '--state', state]);
    expect(deleted.stdout).toBe(`Deleted webhook endpoint ${made.endpointId} (tenant acme, https://hooks.acme.example/catalog).\n`);
    expect((await runCli(['webhooks', 'list', '--state', state])).stdout).toBe('No webhook endpoints.\n');
  });

  it('refuses plain http unless the loopback setting is on, with a usage error naming the flag', async () => {
    const refused = await runCli(['webhooks', 'add', '--state', state, '--tenant', 'acme', '--url', 'http://127.0.0.1:8080/x']);
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain('--url must use https://');
    const allowed = await runCli(['webhooks', 'add', '--state', state, '--tenant', 'acme', '--url', 'http://127.0.0.1:8080/x'], { env: { CATALOG_WEBHOOKS_ALLOW_LOOPBACK_HTTP: '1' } });
    expect(allowed.code).toBe(0);
    expect((await runCli(['webhooks', 'delete', 'whe_nope', '--state', state])).code).toBe(64);
    expect((await runCli(['webhooks', 'delete', 'whe_AAAAAAAAAAAAAAAA', '--state', state])).code).toBe(66);
  });
});
