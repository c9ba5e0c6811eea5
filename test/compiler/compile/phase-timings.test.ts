import { describe, expect, it } from 'vitest';
import { withPhaseTimings } from '../../../compiler/compile/phase-timings.js';
import { silentProgress } from '../../../compiler/compile/progress.js';

describe('withPhaseTimings', () => {
  it('times each phase until the next one starts and reports wall, CPU and memory per line', () => {
    let now = 0;
    const timed = withPhaseTimings(silentProgress, () => now);
    timed.phase('read catalog', null);
    now = 1500;
    timed.phase('publish', null);
    now = 1750;
    const lines: string[] = [];
    timed.report((line) => lines.push(line));
    expect(timed.timings().map((t) => [t.name, t.wallMs])).toEqual([['read catalog', 1500], ['publish', 250]]);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^phase read catalog: 1\.50 s wall, \d+\.\d\d s cpu \(user \d+\.\d\d, system \d+\.\d\d\); gc \d+\.\d\d s; peak \d+ MiB, heap \d+ MiB\n$/);
    expect(lines[1]).toMatch(/^phase publish: 0\.25 s wall, /);
    // The peak is the process's resident set so far: never below what the heap alone holds.
    for (const t of timed.timings()) expect(t.peakRssMiB).toBeGreaterThanOrEqual(t.heapMiB);
  });

  it('gives each phase the garbage-collection pauses that began in it', async () => {
    const tick = () => new Promise((resolve) => setTimeout(resolve, 20));
    const timed = withPhaseTimings(silentProgress);
    timed.phase('quiet', null);
    timed.phase('allocating', null);
    // Short-lived garbage: the young generation is collected many times over.
    let keep = 0;
    for (let i = 0; i < 2_000_000; i++) keep += [i, { i }, `${i}`].length;
    // GC entries are delivered once the event loop turns (a compile's phases await between them).
    await tick();
    timed.phase('after', null);
    await tick();
    const byName = new Map(timed.timings().map((t) => [t.name, t.gcMs]));
    expect(keep).toBe(6_000_000);
    expect(byName.get('allocating')).toBeGreaterThan(0);
    expect(byName.get('quiet')).toBe(0);
  });
});
