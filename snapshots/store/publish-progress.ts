/**
 * How publishing, pruning and fetching on a store report progress: the shape of the compile's
 * ProgressSink (compiler/compile/progress.ts), so the CLI's renderers (cli/progress.ts,
 * cli/compile-log.ts) fit as they are, declared here so snapshots/ does not depend on compiler/.
 * Units are bytes in the upload and download phases (the phase name says so) and objects elsewhere.
 */
export interface StoreProgress {
  phase(name: string, total: number | null): void;
  advance(units: number): void;
  note(line: string): void;
}

export const silentStoreProgress: StoreProgress = { phase() {}, advance() {}, note() {} };
