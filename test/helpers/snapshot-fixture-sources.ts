/**
 * SnapshotSource wrappers for tests (fakes passed in, never module mocks): one that counts every
 * touch of the store, and one that holds `get` calls until released, to keep a request in flight.
 */
import type { SnapshotReader, SnapshotSource } from '../../snapshots/store/types.js';

export interface CountingSource {
  source: SnapshotSource;
  /** `current()` calls plus `get()` calls: any touch of the store. */
  touches(): number;
  keysRead: string[];
}

export function countingSource(inner: SnapshotSource): CountingSource {
  let touches = 0;
  const keysRead: string[] = [];
  return {
    source: {
      async current() {
        touches++;
        const reader = await inner.current();
        if (reader === null) return null;
        return wrapReader(reader, async (key) => {
          touches++;
          keysRead.push(key);
          return reader.get(key);
        });
      },
      open: (id) => inner.open(id),
    },
    touches: () => touches,
    keysRead,
  };
}

export interface GatedSource {
  source: SnapshotSource;
  /** Resolves when a `get` is waiting at the gate. */
  waiting: Promise<void>;
  /** Lets every held and future `get` through. */
  release(): void;
}

export function gatedSource(inner: SnapshotSource): GatedSource {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  let signalWaiting!: () => void;
  const waiting = new Promise<void>((resolve) => (signalWaiting = resolve));
  return {
    source: {
      async current() {
        const reader = await inner.current();
        if (reader === null) return null;
        return wrapReader(reader, async (key) => {
          signalWaiting();
          await opened;
          return reader.get(key);
        });
      },
      open: (id) => inner.open(id),
    },
    waiting,
    release,
  };
}

function wrapReader(reader: SnapshotReader, get: (key: string) => Promise<Buffer | null>): SnapshotReader {
  return { id: reader.id, get, searchDbPath: () => reader.searchDbPath(), file: (name) => reader.file(name), entries: () => reader.entries() };
}
