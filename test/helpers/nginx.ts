/**
 * Starts the system nginx on a free loopback port with every path of its own under a temp folder
 * (never the system configuration): `startNginx` serves a mirror folder with docs/mirroring/nginx.conf,
 * `startStaticNginx` serves a plain folder of files (an HTTP catalog source as a static file server).
 * Both return null when nginx is absent; `nginxMissing` then skips the test, or fails it where nginx
 * must be there (CI: `.ci/run` installs it with scripts/servers/install-nginx.sh).
 *
 * nginx's worker processes run as an unprivileged user (www-data on Debian): the folders served must
 * be readable, and their parents enterable, by that user (a mkdtemp folder is 0700: chmod it).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { REPO } from './cli.js';

export interface RunningNginx {
  url: string;
  stop(): Promise<void>;
}

export function findNginx(): string | null {
  for (const p of ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx']) if (existsSync(p)) return p;
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  return which.status === 0 && which.stdout.trim() ? which.stdout.trim() : null;
}

/** True where a missing nginx is a failure, not a skip: CI (CI=true) and `.ci/run` (CATALOG_REQUIRE_NGINX=1). */
export function nginxRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CI === 'true' || env.CATALOG_REQUIRE_NGINX === '1';
}

/**
 * For a test whose nginx did not start because nginx is not installed: fails it in CI, skips it
 * elsewhere with a message saying how to install nginx.
 */
export function nginxMissing(ctx: { skip(note?: string): void }, what: string, env: NodeJS.ProcessEnv = process.env): void {
  const how = 'bash scripts/servers/install-nginx.sh (Debian: apt-get install -y nginx-light)';
  if (nginxRequired(env)) throw new Error(`nginx is not installed, and this run requires it (CI): ${what} cannot run; .ci/run installs it with ${how}`);
  ctx.skip(`nginx is not installed (${how}): ${what} did not run`);
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Starts nginx with one `server { ... }` block, `@PORT@` in it replaced by a free port. */
async function startWithServer(serverConf: (port: number) => string, workDir: string, what: string): Promise<RunningNginx | null> {
  const bin = findNginx();
  if (bin === null) return null;
  mkdirSync(join(workDir, 'tmp'), { recursive: true });
  const port = await freePort();
  writeFileSync(join(workDir, 'server.conf'), serverConf(port));
  const tmp = join(workDir, 'tmp');
  writeFileSync(join(workDir, 'nginx.conf'), [
    'daemon off;', `pid ${join(workDir, 'nginx.pid')};`, `error_log ${join(workDir, 'error.log')} warn;`,
    'events { worker_connections 64; }',
    `http { access_log off; client_body_temp_path ${tmp}; proxy_temp_path ${tmp}; fastcgi_temp_path ${tmp}; uwsgi_temp_path ${tmp}; scgi_temp_path ${tmp};`,
    `  include ${join(workDir, 'server.conf')}; }`,
  ].join('\n'));
  const args = ['-e', join(workDir, 'error.log'), '-p', `${workDir}/`, '-c', join(workDir, 'nginx.conf')];
  const check = spawnSync(bin, ['-t', '-q', ...args], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx rejected ${what}: ${check.stderr}`);
  const child: ChildProcess = spawn(bin, args, { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  let up = false;
  for (let i = 0; i < 50 && !up && child.exitCode === null; i++) {
    up = await fetch(`${url}/`).then((r) => r.body?.cancel().then(() => true) ?? true, () => false);
    if (!up) await new Promise((r) => setTimeout(r, 100));
  }
  if (!up) {
    child.kill('SIGKILL');
    const log = existsSync(join(workDir, 'error.log')) ? readFileSync(join(workDir, 'error.log'), 'utf8') : '';
    throw new Error(`nginx (${what}) did not answer on ${url} within 5 s: ${log}`);
  }
  return {
    url,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGQUIT');
    }),
  };
}

/** nginx serving a `catalog mirror` folder with docs/mirroring/nginx.conf. */
export function startNginx(mirrorRoot: string, workDir: string): Promise<RunningNginx | null> {
  const conf = readFileSync(join(REPO, 'docs', 'mirroring', 'nginx.conf'), 'utf8');
  return startWithServer(
    (port) => conf.replaceAll('/srv/catalog-mirror', mirrorRoot).replace('listen 8081;', `listen 127.0.0.1:${port};`),
    workDir,
    'docs/mirroring/nginx.conf',
  );
}

/**
 * nginx as a plain static file server of `root` (files at `${url}/<name>`). `keepAlive: false` sets
 * keepalive_timeout 0: every answer says `Connection: close` and nginx closes the connection after it.
 */
export function startStaticNginx(root: string, workDir: string, options: { keepAlive?: boolean } = {}): Promise<RunningNginx | null> {
  return startWithServer(
    (port) => [
      'server {',
      `  listen 127.0.0.1:${port};`,
      `  root ${root};`,
      `  keepalive_timeout ${options.keepAlive === false ? 0 : 75};`,
      '  types { application/json json; application/x-ndjson ndjson; }',
      '  location / { }',
      '}',
    ].join('\n'),
    workDir,
    'a static file server',
  );
}
