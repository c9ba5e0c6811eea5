/**
 * Runs the real `catalog` binary (bin/catalog.js → dist/) as a child process for end-to-end tests:
 * waits for its `listening on <url>` stdout line (or another `ready` line) and collects its output.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CATALOG_BIN = fileURLToPath(new URL('../../bin/catalog.js', import.meta.url));

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a short CLI command to completion. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): CliRun {
  const r = spawnSync(process.execPath, [CATALOG_BIN, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code and signal once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when stderr contains `text` (or rejects after `timeoutMs`). */
  waitForStderr(text: string, timeoutMs?: number): Promise<void>;
}

/**
 * `detached`: the server leads its own process group, so `process.kill(-pid, 'SIGKILL')` kills it and its workers at once.
 * `ready`: the stdout line that says it serves, its group 1 the URL (default: `listening on <url>`, what `catalog serve` prints).
 */
export async function startServerProcess(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; detached?: boolean; ready?: RegExp } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [CATALOG_BIN, ...args], { env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: options.detached === true });
  let out = '';
  let err = '';
  const stderrWaiters: (() => void)[] = [];
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => {
    err += s;
    for (const w of stderrWaiters) w();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no listening line within ${options.timeoutMs ?? 20_000} ms; stderr: ${err}`));
    }, options.timeoutMs ?? 20_000);
    const check = () => {
      const m = (options.ready ?? /^listening on (http:\/\/\S+)$/m).exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', check);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${signal ?? code}) before listening; stderr: ${err}`));
    });
  });
  return {
    child,
    url,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForStderr(text, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`stderr never contained ${JSON.stringify(text)}: ${err}`)), timeoutMs);
        const check = () => {
          if (err.includes(text)) {
            clearTimeout(timer);
            resolve();
          }
        };
        stderrWaiters.push(check);
        check();
      });
    },
  };
}
