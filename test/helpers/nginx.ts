/**
 * Starts the system nginx (when installed) on a free loopback port with docs/mirroring/nginx.conf
 * pointed at a mirror folder, with every path of its own under a temp folder (never the system
 * configuration). Returns null when nginx is absent, so the caller can skip with a message.
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

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startNginx(mirrorRoot: string, workDir: string): Promise<RunningNginx | null> {
  const bin = findNginx();
  if (bin === null) return null;
  mkdirSync(join(workDir, 'tmp'), { recursive: true });
  const port = await freePort();
  const server = readFileSync(join(REPO, 'docs', 'mirroring', 'nginx.conf'), 'utf8')
    .replaceAll('/srv/catalog-mirror', mirrorRoot)
    .replace('listen 8081;', `listen 127.0.0.1:${port};`);
  writeFileSync(join(workDir, 'server.conf'), server);
  const tmp = join(workDir, 'tmp');
  writeFileSync(join(workDir, 'nginx.conf'), [
    'daemon off;', `pid ${join(workDir, 'nginx.pid')};`, `error_log ${join(workDir, 'error.log')} warn;`,
    'events { worker_connections 64; }',
    `http { access_log off; client_body_temp_path ${tmp}; proxy_temp_path ${tmp}; fastcgi_temp_path ${tmp}; uwsgi_temp_path ${tmp}; scgi_temp_path ${tmp};`,
    `  include ${join(workDir, 'server.conf')}; }`,
  ].join('\n'));
  const args = ['-e', join(workDir, 'error.log'), '-p', `${workDir}/`, '-c', join(workDir, 'nginx.conf')];
  const check = spawnSync(bin, ['-t', '-q', ...args], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx rejected docs/mirroring/nginx.conf: ${check.stderr}`);
  const child: ChildProcess = spawn(bin, args, { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i++) {
    const up = await fetch(`${url}/`).then(() => true, () => false);
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
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
