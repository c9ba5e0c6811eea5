// What the compile benchmarks share: running one CLI command under /usr/bin/time (wall, peak RSS and the
// CATALOG_COMPILE_TIMINGS phase lines), waiting for the disk to settle after a big delete, and the 1%
// price change of an incremental compile.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const hasTime = existsSync('/usr/bin/time');

/**
 * Runs `cmd argv` with CATALOG_COMPILE_TIMINGS=1; throws with its output when it fails (or returns the
 * failure when `allowFailure`). Peak RSS and CPU seconds (user + system, every thread) come from
 * /usr/bin/time when the machine has it; on a shared machine the CPU time is steadier than the wall time.
 * @returns {{ wall: number, peakMiB: number | null, cpu: number | null, stdout: string, stderr: string, status: number, phases: string[] }}
 */
export function timedRun(cmd, argv, { allowFailure = false } = {}) {
  const full = hasTime ? ['/usr/bin/time', ['-f', '__TIME__ %M %e %U %S', cmd, ...argv]] : [cmd, argv];
  const t0 = process.hrtime.bigint();
  const env = { ...process.env, CATALOG_COMPILE_TIMINGS: '1' };
  const r = spawnSync(full[0], full[1], { encoding: 'utf8', maxBuffer: 64 << 20, env });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0 && !allowFailure) {
    process.stderr.write(r.stdout + r.stderr);
    throw new Error(`${cmd} ${argv.join(' ')} failed with ${r.status}`);
  }
  const m = /__TIME__ (\d+) ([\d.]+) ([\d.]+) ([\d.]+)/.exec(r.stderr);
  const phases = r.stderr.split('\n').filter((l) => l.startsWith('phase '));
  return { wall, peakMiB: m ? Number(m[1]) / 1024 : null, cpu: m ? Number(m[3]) + Number(m[4]) : null, stdout: r.stdout.trim(), stderr: r.stderr, status: r.status, phases };
}

/**
 * Deleting hundreds of thousands of files makes file creation on this ext4 VM (mounted with `discard`)
 * several times slower for tens of seconds afterwards (docs/benchmarks.md), so a benchmark that just
 * deleted a big tree syncs and waits before its next compile.
 */
export function settle(seconds) {
  if (seconds <= 0) return;
  process.stderr.write(`letting the filesystem settle for ${seconds}s after deleting the previous run...\n`);
  spawnSync('sync');
  spawnSync('sleep', [String(seconds)]);
}

// The 1% price change is shared with bench-publish.mjs.
export { touchOnePercent } from './touch-prices.mjs';
