/**
 * How far V8 lets the compile's main heap grow past what its last full collection left live.
 *
 * At a million cards the main thread holds about 650 MB that stays live to the end (the loaded
 * catalog, each entity's price summary and input token), and every full collection marks all of it:
 * several seconds of CPU each, taken from the render thread's core. Left to itself V8 lets the heap
 * reach two to three times the live size before collecting (a 1.8 GB heap, 2.5 GiB resident: over
 * the 2 GiB the compile must stay within); bounded much tighter, it collects four times as often
 * (41 full collections instead of 10, a quarter more CPU). 70% above the live size keeps both:
 * docs/benchmarks.md, "Garbage collection that grew with the square of the catalog".
 *
 * A process-wide V8 setting, read each time V8 sets its next limit: made once, by the compile.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 70;

let bounded = false;

export function boundHeapGrowth(): void {
  if (bounded) return;
  bounded = true;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
