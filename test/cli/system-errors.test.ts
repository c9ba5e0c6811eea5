/**
 * System errors an operator can act on (a full disk, a folder it may not write) end the CLI with
 * exit 74 and a message that says what to do, never "unexpected failure" (exit 70).
 */
import { describe, expect, it } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { systemError } from '../../cli/system-errors.js';

const errno = (code: string, path?: string) => Object.assign(new Error(`${code}: something, mkdir`), { code, path });

describe('system errors', () => {
  it('when the disk or its inodes are full then the message says so, names the path and how to check', () => {
    const e = systemError(errno('ENOSPC', '/srv/snapshots/20261124T000000Z-1a2b3c4d/v1/cards/x'));
    expect(e?.code).toBe('io');
    expect(e?.exitCode).toBe(74);
    expect(e?.message).toBe(
      'no space left on the device at /srv/snapshots/20261124T000000Z-1a2b3c4d/v1/cards/x (disk or inodes full: check df -h and df -i); free some space and run the command again',
    );
  });

  it('maps quota, permission, read-only and open-file limits, and leaves every other error alone', () => {
    expect(systemError(errno('EDQUOT', '/a'))?.message).toMatch(/^disk quota exceeded at \/a;/);
    expect(systemError(errno('EACCES', '/a'))?.message).toMatch(/^permission denied at \/a;/);
    expect(systemError(errno('EROFS'))?.message).toMatch(/^read-only file system; /);
    expect(systemError(errno('EMFILE'))?.message).toMatch(/ulimit -n/);
    expect(systemError(errno('ENOENT', '/a'))).toBeNull();
    expect(systemError(new Error('plain'))).toBeNull();
    expect(systemError(null)).toBeNull();
  });

  it('when compile may not create its output folder then it exits 74 naming the folder, not as an unexpected failure', async () => {
    const src = join(tempDir(), 'catalog');
    expect((await runCli(['generate', '--out', src, '--cards', '20'])).code).toBe(0);
    // /sys refuses new folders even to root (EPERM; EACCES or EROFS elsewhere): all three are mapped.
    const out = `/sys/catalog-test-${process.pid}`;
    const r = await runCli(['compile', '--source', src, '--out', out]);
    expect(r.code).toBe(74);
    expect(r.stderr).toMatch(new RegExp(`catalog: (operation not permitted|permission denied|read-only file system) at ${out};`));
    expect(r.stderr).not.toMatch(/unexpected failure/);
  });

  it('when --out is a file, or inside one, then compile exits 74 naming the file, not as an unexpected failure', async () => {
    const dir = tempDir();
    const src = join(dir, 'catalog');
    expect((await runCli(['generate', '--out', src, '--cards', '20'])).code).toBe(0);
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    for (const out of [file, join(file, 'snapshots')]) {
      const r = await runCli(['compile', '--source', src, '--out', out]);
      expect(r.code).toBe(74);
      expect(r.stderr).toContain(`: ${file} is a file, not a folder; choose another folder`);
      expect(r.stderr).not.toMatch(/unexpected failure/);
    }
  });

  // Node's own recursive mkdir never returns on such a path (snapshots/store/make-dirs.ts); the
  // timeout turns a regression into a failure instead of a stalled suite.
  it.skipIf(!existsSync('/proc/self'))('when --out is under /proc then compile and generate exit 74 at once instead of hanging', async () => {
    const src = join(tempDir(), 'catalog');
    expect((await runCli(['generate', '--out', src, '--cards', '20'])).code).toBe(0);
    const out = `/proc/catalog-test-${process.pid}/snapshots`;
    for (const args of [['compile', '--source', src, '--out', out], ['generate', '--out', out, '--cards', '20']]) {
      const r = await runCli(args, { timeoutMs: 30_000 });
      expect(r.signal).toBeNull();
      expect(r.code).toBe(74);
      expect(r.stderr).toContain(`cannot create the folder /proc/catalog-test-${process.pid}: /proc exists but does not accept new folders`);
    }
  });
});
