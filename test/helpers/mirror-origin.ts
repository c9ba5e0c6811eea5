/**
 * What the mirror end-to-end suites share: an origin (`catalog serve --public-key` over a snapshot
 * root, a minted enterprise key in `<dir>/key.txt`, a limit high enough for a whole sync), and the
 * check that a mirror served by nginx answers like the origin (status, bytes, ETag, Cache-Control,
 * X-Snapshot-Id, 304 on the origin's ETag).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { expect } from 'vitest';
import { runCli } from './cli.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

/** `root` is a snapshot folder or `s3://bucket/prefix` (then `env` carries the AWS_* settings). */
export async function startMirrorOrigin(dir: string, root: string, publicKey: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const minted = await runCli(['keys', 'mint', '--state', join(dir, 'state.sqlite'), '--tenant', 'mirror', '--tier', 'enterprise', '--json']);
  expect(minted.code, minted.stderr).toBe(0);
  writeFileSync(join(dir, 'key.txt'), JSON.parse(minted.stdout).key + '\n', { mode: 0o600 });
  return startServerProcess(
    ['serve', '--snapshots', root, '--state', join(dir, 'state.sqlite'), '--port', '0', '--workers', '1', '--public-key', publicKey],
    { env: { ...env, CATALOG_TIER_LIMITS: 'enterprise=999999999' } },
  );
}

export async function expectNginxLikeOrigin(dir: string, originUrl: string, nginxUrl: string, paths: string[]): Promise<void> {
  const key = readFileSync(join(dir, 'key.txt'), 'utf8').trim();
  for (const path of paths) {
    const o = await request(`${originUrl}${path}`, { headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip' } });
    const m = await request(`${nginxUrl}${path}`, { headers: { 'accept-encoding': 'gzip' } });
    const ob = Buffer.from(await o.body.arrayBuffer());
    const mb = Buffer.from(await m.body.arrayBuffer());
    expect([path, m.statusCode], path).toEqual([path, 200]);
    expect(mb.equals(ob), path).toBe(true);
    expect(m.headers.etag, path).toBe(o.headers.etag);
    expect(m.headers['cache-control'], path).toBe(o.headers['cache-control']);
    expect(m.headers['x-snapshot-id'], path).toBe(o.headers['x-snapshot-id']);
    const again = await request(`${nginxUrl}${path}`, { headers: { 'accept-encoding': 'gzip', 'if-none-match': String(o.headers.etag) } });
    await again.body.dump();
    expect(again.statusCode, path).toBe(304);
    expect(again.headers.etag, path).toBe(o.headers.etag);
  }
}
