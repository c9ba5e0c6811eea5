/**
 * Per-phase wall and CPU times of a compile, for profiling (`CATALOG_COMPILE_TIMINGS=1 catalog compile ...`
 * prints them to stderr). Wraps any ProgressSink: a phase ends when the next one starts or at `report`.
 * CPU is this process's user+system time (the main thread plus the render workers), so cpu > wall
 * means both cores were busy. GC is the main thread's garbage-collection pauses within the phase (a
 * heap that holds the whole catalog makes each major collection longer). Memory is the process's peak
 * resident set so far (every thread) and the main thread's V8 heap when the phase ended: the phase in
 * which the peak grows is the one to shrink.
 *
 * @example
 *   const timed = withPhaseTimings(progress);
 *   await compileSnapshot({ source, out, progress: timed });
 *   timed.report((line) => process.stderr.write(line));
 *   // phase cards and figures: 41.20 s wall, 70.11 s cpu (user 52.3, system 17.8); gc 1.32 s; peak 812 MiB, heap 402 MiB
 */
import { PerformanceObserver } from 'node:perf_hooks';
import type { ProgressSink } from './progress.js';

export interface PhaseTiming {
  name: string;
  wallMs: number;
  userMs: number;
  systemMs: number;
  /** The main thread's GC pauses that began within the phase. */
  gcMs: number;
  /** Peak resident set of the process so far, when the phase ended. */
  peakRssMiB: number;
  /** The main thread's V8 heap in use when the phase ended. */
  heapMiB: number;
}

export function withPhaseTimings(inner: ProgressSink, clock: () => number = () => performance.now()): ProgressSink & {
  timings(): PhaseTiming[];
  report(write: (line: string) => void): void;
} {
  const done: (PhaseTiming & { from: number; to: number })[] = [];
  let current: { name: string; start: number; from: number; cpu: NodeJS.CpuUsage } | null = null;
  // GC entries arrive after the fact; each is given to the phase its start falls in (performance's
  // own timeline, whatever `clock` is).
  const gcs: { at: number; ms: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push({ at: e.startTime, ms: e.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  const close = () => {
    if (!current) return;
    const cpu = process.cpuUsage(current.cpu);
    done.push({
      name: current.name,
      from: current.from,
      to: performance.now(),
      wallMs: clock() - current.start,
      userMs: cpu.user / 1000,
      systemMs: cpu.system / 1000,
      gcMs: 0,
      peakRssMiB: process.resourceUsage().maxRSS / 1024,
      heapMiB: process.memoryUsage().heapUsed / 1048576,
    });
    current = null;
  };
  const timings = (): PhaseTiming[] => {
    close();
    for (const e of observer.takeRecords()) gcs.push({ at: e.startTime, ms: e.duration });
    for (const t of done) t.gcMs = gcs.reduce((sum, g) => (g.at >= t.from && g.at < t.to ? sum + g.ms : sum), 0);
    return done.map(({ from: _from, to: _to, ...t }) => t);
  };
  return {
    phase(name, total) {
      close();
      current = { name, start: clock(), from: performance.now(), cpu: process.cpuUsage() };
      inner.phase(name, total);
    },
    advance: (units) => inner.advance(units),
    note: (line) => inner.note(line),
    timings,
    report(write) {
      const all = timings();
      observer.disconnect();
      const s = (ms: number) => (ms / 1000).toFixed(2);
      for (const t of all) {
        write(
          `phase ${t.name}: ${s(t.wallMs)} s wall, ${s(t.userMs + t.systemMs)} s cpu (user ${s(t.userMs)}, system ${s(t.systemMs)}); gc ${s(t.gcMs)} s; ` +
            `peak ${t.peakRssMiB.toFixed(0)} MiB, heap ${t.heapMiB.toFixed(0)} MiB\n`,
        );
      }
    },
  };
}
