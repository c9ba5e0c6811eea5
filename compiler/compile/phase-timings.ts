/**
 * Per-phase wall and CPU times of a compile, for profiling (`CATALOG_COMPILE_TIMINGS=1 catalog compile ...`
 * prints them to stderr). Wraps any ProgressSink: a phase ends when the next one starts or at `report`.
 * CPU is this process's user+system time (the main thread plus the render workers), so cpu > wall
 * means both cores were busy. Memory is the process's peak resident set so far (every thread) and the
 * main thread's V8 heap when the phase ended: the phase in which the peak grows is the one to shrink.
 *
 * @example
 *   const timed = withPhaseTimings(progress);
 *   await compileSnapshot({ source, out, progress: timed });
 *   timed.report((line) => process.stderr.write(line));
 *   // phase cards and figures: 41.20 s wall, 70.11 s cpu (user 52.3, system 17.8); peak 812 MiB, heap 402 MiB
 */
import type { ProgressSink } from './progress.js';

export interface PhaseTiming {
  name: string;
  wallMs: number;
  userMs: number;
  systemMs: number;
  /** Peak resident set of the process so far, when the phase ended. */
  peakRssMiB: number;
  /** The main thread's V8 heap in use when the phase ended. */
  heapMiB: number;
}

export function withPhaseTimings(inner: ProgressSink, clock: () => number = () => performance.now()): ProgressSink & {
  timings(): PhaseTiming[];
  report(write: (line: string) => void): void;
} {
  const done: PhaseTiming[] = [];
  let current: { name: string; start: number; cpu: NodeJS.CpuUsage } | null = null;
  const close = () => {
    if (!current) return;
    const cpu = process.cpuUsage(current.cpu);
    done.push({
      name: current.name,
      wallMs: clock() - current.start,
      userMs: cpu.user / 1000,
      systemMs: cpu.system / 1000,
      peakRssMiB: process.resourceUsage().maxRSS / 1024,
      heapMiB: process.memoryUsage().heapUsed / 1048576,
    });
    current = null;
  };
  return {
    phase(name, total) {
      close();
      current = { name, start: clock(), cpu: process.cpuUsage() };
      inner.phase(name, total);
    },
    advance: (units) => inner.advance(units),
    note: (line) => inner.note(line),
    timings() {
      close();
      return done;
    },
    report(write) {
      close();
      const s = (ms: number) => (ms / 1000).toFixed(2);
      for (const t of done) {
        write(
          `phase ${t.name}: ${s(t.wallMs)} s wall, ${s(t.userMs + t.systemMs)} s cpu (user ${s(t.userMs)}, system ${s(t.systemMs)}); ` +
            `peak ${t.peakRssMiB.toFixed(0)} MiB, heap ${t.heapMiB.toFixed(0)} MiB\n`,
        );
      }
    },
  };
}
