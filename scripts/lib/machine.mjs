// The machine a benchmark ran on, for its result: a number means little without the cores, memory,
// Node version and what else was running (the machine may be shared, so the load average is printed).
import { cpus, loadavg, totalmem } from 'node:os';

/** The 1, 5 and 15 minute load averages, `0.52 0.61 0.70`. */
export function loadAverage() {
  return loadavg().map((l) => l.toFixed(2)).join(' ');
}

/** `machine: 2 cores (<cpu model>), 8 GiB, node v20.x; load average 0.52 0.61 0.70`. */
export function machineLine() {
  return `machine: ${cpus().length} cores (${cpus()[0].model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}; load average ${loadAverage()}`;
}
