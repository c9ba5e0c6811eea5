/**
 * End to end: the real binary (`npm test` builds dist/ first) serving a fixture snapshot with two
 * cluster workers, a key minted through `catalog keys mint --json`, real HTTP, then SIGTERM. The
 * same scenario runs on the folder store and on an object store (the Swift server, `--snapshots
 * s3://bucket/prefix`, the fixture packed and copied into a bucket of its own).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardKey } from '../../snapshots/keys.js';
import { runCli, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { FIXTURE_CARD_IDS, writeFixtureSnapshot, type FixtureSnapshot } from '../helpers/snapshot-fixture.js';
import { packedRoot } from '../helpers/packed-from-folder.js';
import { swiftPlan } from '../helpers/swift.js';
import { swiftBucket, uploadRoot, type SwiftBucket } from '../helpers/swift-source-bucket.js';

const swift = swiftPlan();
if (swift.unavailable) console.warn(`serve.test.ts: ${swift.unavailable}`);

let dir: string;
let fixture: FixtureSnapshot;
let key: string;
let server: ServerProcess | null = null;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'catalog-e2e-'));
  fixture = await writeFixtureSnapshot(join(dir, 'snapshots'));
  const minted = runCli(['keys', 'mint', '--state', join(dir, 'state.sqlite'), '--tenant', 'e2e', '--tier', 'standard', '--json']);
  expect(minted.status, minted.stderr).toBe(0);
  key = JSON.parse(minted.stdout).key;
});
afterAll(() => {
  server?.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const childPids = (pid: number): number[] => {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).split('\n').map((s) => s.trim()).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

/** Serves `snapshots` (a folder or s3://) with two workers: answers, a worker restart, SIGTERM. */
async function serveScenario(snapshots: string, env: NodeJS.ProcessEnv = {}): Promise<void> {
  {
    server = await startServerProcess([
      'serve', '--snapshots', snapshots, '--state', join(dir, 'state.sqlite'), '--port', '0', '--workers', '2',
    ], { env });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/);
    const auth = { authorization: `Bearer ${key}` };

    // gzip passes through byte for byte
    const gz = await request(`${server.url}/v1/cards/${FIXTURE_CARD_IDS[0]}`, { headers: { ...auth, 'accept-encoding': 'gzip' } });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['x-snapshot-id']).toBe(fixture.id);
    const gzBytes = Buffer.from(await gz.body.arrayBuffer());
    const stored = readFileSync(join(fixture.dir, cardKey(FIXTURE_CARD_IDS[0], '30d')));
    expect(gzBytes.equals(stored)).toBe(true);

    // revalidation over real HTTP: 304, no body, still labelled JSON
    const revalidated = await request(`${server.url}/v1/cards/${FIXTURE_CARD_IDS[0]}`, {
      headers: { ...auth, 'accept-encoding': 'gzip', 'if-none-match': gz.headers.etag as string },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(await revalidated.body.text()).toBe('');

    // identity for a client that does not ask for gzip
    const plain = await request(`${server.url}/v1/cards/${FIXTURE_CARD_IDS[0]}`, { headers: auth });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(await plain.body.text()).toBe(gunzipSync(stored).toString('utf8'));

    // no key → 401 with the Bearer challenge
    const anon = await request(`${server.url}/v1/cards/${FIXTURE_CARD_IDS[0]}`);
    expect(anon.statusCode).toBe(401);
    expect(anon.headers['www-authenticate']).toContain('Bearer');
    expect(JSON.parse(await anon.body.text()).error).toBe('unauthenticated');

    // many requests over several connections all succeed (both workers answer)
    const statuses = await Promise.all(Array.from({ length: 20 }, () =>
      request(`${server!.url}/v1/trending?limit=5`, { headers: auth }).then(async (r) => {
        await r.body.dump();
        return r.statusCode;
      })));
    expect(statuses.every((s) => s === 200)).toBe(true);

    // a worker that dies is replaced
    const workers = childPids(server.child.pid!);
    expect(workers).toHaveLength(2);
    process.kill(workers[0], 'SIGKILL');
    await server.waitForStderr('restarting');
    for (let i = 0; i < 50 && childPids(server.child.pid!).filter((p) => p !== workers[0]).length < 2; i++) await sleep(100);
    expect(childPids(server.child.pid!).filter((p) => p !== workers[0])).toHaveLength(2);
    const after = await request(`${server.url}/v1/catalog/summary`, { headers: auth });
    expect(after.statusCode).toBe(200);
    await after.body.dump();

    // SIGTERM: clean exit 0, one stop line, no key in any output
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(server.stderr()).toContain('stopped');
    expect(server.stderr() + server.stdout()).not.toContain(key);
    expect(server.stderr()).not.toMatch(/\n\s+at /);
    server = null;
  }
}

describe('catalog serve --workers 2', () => {
  it('serves, restarts a dead worker, and exits 0 on SIGTERM', async () => {
    await serveScenario(join(dir, 'snapshots'));
  });

  describe.skipIf(swift.unavailable !== null)('from an object store (s3:// on Swift)', () => {
    let bucket: SwiftBucket | null = null;
    afterAll(async () => {
      await bucket?.drop();
    });

    it('serves the same, restarts a dead worker, and exits 0 on SIGTERM', async () => {
      const packed = await packedRoot(fixture.root, join(dir, 'packed'));
      bucket = await swiftBucket(swift, 'e2e-serve');
      await uploadRoot(packed.root, bucket.store('catalog/'));
      await serveScenario(`s3://${bucket.name}/catalog`, bucket.env);
    }, 60_000);
  });

  it('a bad option exits with the usage code and a message naming it', () => {
    const r = runCli(['serve', '--snapshots', join(dir, 'snapshots'), '--state', join(dir, 'state.sqlite'), '--port', 'eighty']);
    expect(r.status).toBe(64);
    expect(r.stderr).toContain('--port');
  });

  it('when --snapshots is neither a folder nor s3://bucket/prefix then it exits with the usage code and says what to give', () => {
    const state = join(dir, 'state.sqlite');
    const ftp = runCli(['serve', '--snapshots', 'ftp://host/snaps', '--state', state, '--port', '0']);
    expect(ftp.status).toBe(64);
    expect(ftp.stderr).toContain('--snapshots: ftp:// is not a store; give a folder path or s3://bucket/prefix');
    const bucket = runCli(['serve', '--snapshots', 's3://No_Such/snaps', '--state', state, '--port', '0']);
    expect(bucket.status).toBe(64);
    expect(bucket.stderr).toContain('"No_Such" is not a bucket name');
    const poll = runCli(['serve', '--snapshots', 's3://snaps/catalog', '--state', state, '--port', '0', '--poll-seconds', '0']);
    expect(poll.status).toBe(64);
    expect(poll.stderr).toContain('--poll-seconds');
  });

  it('when --snapshots names a file then it exits with the usage code instead of serving 503s', () => {
    const file = join(dir, 'not-a-root');
    writeFileSync(file, 'x');
    const r = runCli(['serve', '--snapshots', file, '--state', join(dir, 'state.sqlite'), '--port', '0']);
    expect(r.status).toBe(64);
    expect(r.stderr).toContain(`--snapshots ${file} is a file, not a snapshot root folder`);
  });
});
