/**
 * Runs the proxy's rate limiter (or other state code) in separate Node processes for the
 * cross-process tests. The code and its imports are transpiled from the TypeScript sources into a
 * temp folder (so the test does not depend on dist/ being built or on other parts of the tree
 * compiling), with node_modules linked beside them for better-sqlite3, pg and ioredis.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCES = ['proxy/limits/counter.ts', 'proxy/state/open.ts'];

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

/**
 * Transpiles `entries` and every relative module they import (recursively) from the TypeScript
 * sources into `dir`, links node_modules beside them, and writes `script` as child.mjs; returns its path.
 */
export function buildChild(dir: string, entries: string[], script: string): string {
  const done = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const source = queue.pop()!;
    if (done.has(source)) continue;
    done.add(source);
    const text = readFileSync(join(ROOT, source), 'utf8');
    for (const m of text.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)) queue.push(relative(ROOT, resolve(ROOT, dirname(source), `${m[1]}.ts`)));
    const out = join(dir, source.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(out), { recursive: true });
    const { outputText } = ts.transpileModule(text, {
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    });
    writeFileSync(out, outputText);
  }
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const path = join(dir, 'child.mjs');
  writeFileSync(path, script);
  return path;
}

/** Writes the transpiled limiter and the child script into `dir`; returns the script path. */
export function buildLimiterChild(dir: string): string {
  return buildChild(dir, SOURCES, CHILD);
}

export function runLimiterChild(script: string, args: (string | number)[]): Promise<{ allowed: number }> {
  return runChild(script, args);
}

/** Runs the child script with `args`; resolves with the JSON it printed, rejects when it failed or was killed. */
export function runChild<T>(script: string, args: (string | number)[]): Promise<T> {
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
