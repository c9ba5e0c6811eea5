/**
 * Runs the proxy's rate limiter in separate Node processes for the cross-process test. The
 * limiter and its imports are transpiled from the TypeScript sources into a temp folder (so the
 * test does not depend on dist/ being built or on other parts of the tree compiling), with
 * node_modules linked beside them for better-sqlite3.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCES = ['proxy/limits/counter.ts', 'proxy/state/open.ts', 'proxy/state/migrations.ts', 'proxy/tiers.ts', 'snapshots/errors.ts', 'snapshots/store/make-dirs.ts'];

const CHILD = `
import { openStateDb } from './proxy/state/open.js';
import { createRateLimiter } from './proxy/limits/counter.js';
const [file, keyId, hits, limit, nowMs, startAt] = process.argv.slice(2);
const state = openStateDb(file);
const limiter = createRateLimiter(state, { limits: { free: Number(limit), standard: 1, enterprise: 1 }, clock: () => Number(nowMs) });
// Both children start hitting at the same instant so their writes interleave.
while (Date.now() < Number(startAt)) {}
let allowed = 0;
for (let i = 0; i < Number(hits); i++) if (limiter.hit(keyId, 'free').allowed) allowed++;
state.close();
process.stdout.write(JSON.stringify({ allowed }));
`;

/** Writes the transpiled limiter and the child script into `dir`; returns the script path. */
export function buildLimiterChild(dir: string): string {
  for (const source of SOURCES) {
    const out = join(dir, source.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(out), { recursive: true });
    const { outputText } = ts.transpileModule(readFileSync(join(ROOT, source), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    });
    writeFileSync(out, outputText);
  }
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const script = join(dir, 'child.mjs');
  writeFileSync(script, CHILD);
  return script;
}

export function runLimiterChild(script: string, args: (string | number)[]): Promise<{ allowed: number }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [script, ...args.map(String)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolvePromise(JSON.parse(out)) : reject(new Error(`child exited ${code}: ${err}`))));
  });
}
