/**
 * Runs the real `catalog` binary (bin/catalog.js → dist/, built by `npm test` before vitest).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(REPO, 'bin', 'catalog.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** `timeoutMs` kills a child that hangs (SIGKILL, seen as `signal`), so a regression fails instead of stalling the suite. */
export function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? REPO,
      env: { ...process.env, ...options.env },
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs, killSignal: 'SIGKILL' as const }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

export function startCli(args: string[], env?: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], { cwd: REPO, env: { ...process.env, ...env } });
}

export function tempDir(prefix = 'catalog-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
