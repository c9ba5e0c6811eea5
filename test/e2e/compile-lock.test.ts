import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';

let source: string;

beforeAll(async () => {
  source = join(tempDir('catalog-lock-'), 'catalog');
  const gen = await runCli(['generate', '--out', source, '--cards', '60', '--seed', '3']);
  expect(gen.code).toBe(0);
});

const compile = (out: string) => runCli(['compile', '--source', source, '--out', out, '--workers', '0']);
const snapshotsIn = (root: string) => readdirSync(root).filter((n) => /^\d{8}T/.test(n));

describe('one compile at a time per snapshot root', () => {
  const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
  afterAll(() => sleeper.kill());

  it('when another live compile holds the root then compile exits 75, names its pid, and touches nothing', async () => {
    const root = tempDir('catalog-lock-root-');
    expect((await compile(root)).code).toBe(0);
    const before = snapshotsIn(root);
    writeFileSync(join(root, '.compile.lock'), `${sleeper.pid}\n`);
    const res = await compile(root);
    expect(res.code).toBe(75);
    expect(res.stderr).toContain(`another compile (pid ${sleeper.pid}) is writing to ${root}`);
    // Refused before the catalog is read (which takes minutes at a million cards).
    expect(res.stderr).not.toContain('read catalog');
    expect(snapshotsIn(root)).toEqual(before);
    expect(existsSync(join(root, '.compile.lock'))).toBe(true);
  });

  it('when the lock was left by a compile that died then the next compile takes it over and removes it', async () => {
    const root = tempDir('catalog-lock-root-');
    mkdirSync(root, { recursive: true });
    // The pid of a process that has exited: a compile killed with SIGKILL leaves exactly this.
    const dead = spawnSync('true').pid!;
    writeFileSync(join(root, '.compile.lock'), `${dead}\n`);
    const res = await compile(root);
    expect(res.code).toBe(0);
    expect(snapshotsIn(root)).toHaveLength(1);
    expect(existsSync(join(root, '.compile.lock'))).toBe(false);
  });
});
