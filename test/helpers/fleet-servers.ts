/**
 * The real Redis and PostgreSQL of the fleet state's tests, run by the project's own
 * scripts/servers/{redis,postgres}.sh on loopback. A test uses the checkout's server when one runs
 * (`.ci/run` or a developer started it; REDIS_STATE / PG_STATE name another state folder), else it
 * starts one in a temp state folder of its own and stops it afterwards, so parallel test files
 * never race to start the same server. `own: true` always starts a private one (a test that stops
 * and restarts its server must not do that to the others').
 *
 * Decided when the test file loads, so the suite can be skipped with a reason: `unavailable` says
 * why there is no server (not installed and not CI); with CI set a missing server fails instead.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { REPO } from './cli.js';

export interface FleetServer {
  url: string;
  /** Stops the server (a private one only; the shared one is left running). */
  stop(): void;
  /** Stops a private server now and starts it again on the same port (its clients keep their URL). */
  halt(): void;
  resume(): void;
}

export interface ServerPlan {
  /** Why these tests cannot run here, or null when they can. */
  unavailable: string | null;
  start(options?: { own?: boolean; env?: Record<string, string> }): FleetServer;
}

interface ServerKind {
  script: string;
  stateVariable: string;
  urlVariable: string;
  installed: () => boolean;
  what: string;
}

const script = (name: string) => join(REPO, 'scripts', 'servers', `${name}.sh`);

const REDIS: ServerKind = {
  script: script('redis'),
  stateVariable: 'REDIS_STATE',
  urlVariable: 'CATALOG_REDIS_URL',
  installed: () => spawnSync('sh', ['-c', 'command -v redis-server']).status === 0,
  what: 'Redis (Debian: redis-server)',
};

const POSTGRES: ServerKind = {
  script: script('postgres'),
  stateVariable: 'PG_STATE',
  urlVariable: 'CATALOG_STATE_URL',
  installed: () => existsSync('/usr/lib/postgresql/15/bin/postgres'),
  what: 'PostgreSQL 15 (Debian: postgresql-15)',
};

function plan(kind: ServerKind): ServerPlan {
  const run = (command: string, env: NodeJS.ProcessEnv = process.env) => spawnSync('bash', [kind.script, command], { encoding: 'utf8', env });
  const sharedRuns = run('status').status === 0;
  const unavailable = sharedRuns || kind.installed()
    ? null
    : `${kind.what} is not installed, so the fleet state tests are skipped: run \`bash ${relative(REPO, kind.script)} install\` (root, Debian) or \`bash .ci/run\``;
  if (unavailable !== null && process.env.CI) throw new Error(`CI is set but ${unavailable}`);
  const urlOf = (env: NodeJS.ProcessEnv) => {
    const out = execFileSync('bash', [kind.script, 'env'], { encoding: 'utf8', env });
    const m = new RegExp(`^export ${kind.urlVariable}=(.*)$`, 'm').exec(out);
    if (!m) throw new Error(`${kind.script} env printed no ${kind.urlVariable}`);
    return m[1];
  };
  return {
    unavailable,
    start(options = {}) {
      if (sharedRuns && !options.own) return { url: urlOf(process.env), stop() {}, halt: refuse, resume: refuse };
      const state = mkdtempSync(join(tmpdir(), 'catalog-fleet-'));
      const env = { ...process.env, ...options.env, [kind.stateVariable]: state };
      const start = () => execFileSync('bash', [kind.script, 'start'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
      start();
      return {
        url: urlOf(env),
        stop() {
          run('stop', env);
          rmSync(state, { recursive: true, force: true });
        },
        halt: () => void run('stop', env),
        resume: start,
      };
    },
  };
}

function refuse(): never {
  throw new Error('only a private server (start({ own: true })) may be stopped and restarted by a test');
}

export const redisPlan = () => plan(REDIS);
export const postgresPlan = () => plan(POSTGRES);

/** A new empty database on the PostgreSQL at `url` (the test role may create databases); drop() removes it. */
export async function freshDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const { default: pg } = await import('pg');
  const name = `catalog_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client(url);
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  return {
    url: dbUrl.toString(),
    async drop() {
      const c = new pg.Client(url);
      await c.connect();
      try {
        // FORCE cannot end a backend of another role (an autovacuum worker that has just connected to
        // the database: error 42501); such a worker leaves within moments, so try again briefly.
        for (let attempt = 1; ; attempt++) {
          try {
            await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            return;
          } catch (err) {
            if ((err as { code?: string }).code !== '42501' || attempt === 20) throw err;
            await new Promise((r) => setTimeout(r, 250));
          }
        }
      } finally {
        await c.end();
      }
    },
  };
}
