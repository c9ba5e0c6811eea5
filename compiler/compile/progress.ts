/**
 * How the compile reports progress. The CLI renders it (a live line on a terminal, quiet otherwise);
 * library callers and tests pass nothing and get silence.
 */
export interface ProgressSink {
  /** A new phase starts; `total` is the number of units when known. */
  phase(name: string, total: number | null): void;
  advance(units: number): void;
  /** A line worth keeping in the log (warnings such as skipped records). */
  note(line: string): void;
}

export const silentProgress: ProgressSink = { phase() {}, advance() {}, note() {} };
