/**
 * The real S3 server of the S3 store's tests: OpenStack Swift with s3api, run by the project's own
 * scripts/servers/swift.sh on loopback. `.ci/run` installs and starts it before `npm test`; a
 * developer either does the same or lets the tests start it (when installed) and stop it after.
 *
 * Decided when the test file loads, so the suite can be skipped with a reason: `unavailable` says
 * why there is no server (not installed and not CI); with CI set a missing server fails instead.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from './cli.js';

const SCRIPT = join(REPO, 'scripts', 'servers', 'swift.sh');

const run = (command: string) => spawnSync('bash', [SCRIPT, command], { encoding: 'utf8' });
const installed = () => spawnSync('dpkg-query', ['-W', '-f=${Status}', 'swift-proxy'], { encoding: 'utf8' }).stdout?.includes('install ok installed') === true;

export interface SwiftPlan {
  /** Why the S3 tests cannot run here, or null when they can. */
  unavailable: string | null;
  /** Starts Swift unless it runs already; returns the AWS_* settings of it and a stop for what it started. */
  start(): Promise<{ env: Record<string, string>; stop(): void }>;
}

function parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const m of text.matchAll(/^export (AWS_[A-Z0-9_]+)=(.*)$/gm)) env[m[1]] = m[2];
  return env;
}

export function swiftPlan(): SwiftPlan {
  const runningAlready = run('status').status === 0;
  const canStart = runningAlready || installed();
  const unavailable = canStart
    ? null
    : 'OpenStack Swift is not installed, so the S3 store tests are skipped: run `bash scripts/servers/swift.sh install` ' +
      '(root, Debian: swift-proxy swift-object swift-container swift-account memcached) or `bash .ci/run`';
  if (unavailable !== null && process.env.CI) throw new Error(`CI is set but ${unavailable}`);
  return {
    unavailable,
    async start() {
      // The script runs synchronously here: a 10-20 s start inside beforeAll (hookTimeout 60 s).
      if (!runningAlready) execFileSync('bash', [SCRIPT, 'start'], { stdio: ['ignore', 'ignore', 'inherit'] });
      const env = parseEnv(execFileSync('bash', [SCRIPT, 'env'], { encoding: 'utf8' }));
      return { env, stop: () => void (runningAlready || run('stop')) };
    },
  };
}
