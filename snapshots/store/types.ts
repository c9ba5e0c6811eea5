import type { ManifestHeader } from '../manifest.js';

/**
 * The store interface both halves share. The read side resolves the `current` pointer once per
 * request and hands back an immutable snapshot, so a request in flight finishes on the snapshot it
 * started on even if the pointer moves. The write side is used by the compiler's publish step.
 */
export interface SnapshotReader {
  readonly id: string;
  /** The gzip bytes of the object at `key`, or null when the snapshot has no such object. */
  get(key: string): Promise<Buffer | null>;
  /** A local path of the snapshot's SQLite search index (downloaded first for remote stores). */
  searchDbPath(): Promise<string | null>;
  /** A file beside the objects (manifest, its signature, a bulk file), or null when absent. */
  file(name: string): Promise<SnapshotFile | null>;
  /** Every object of the snapshot, sorted by key (the manifest's lines, or a packed snapshot's index). */
  entries(): AsyncIterable<SnapshotEntry>;
  /**
   * A pack file of the snapshot root (`packs/<sha256>.pack`), or null when absent, for the mirror
   * route. The caller checks that the snapshot's manifest lists it and that `sha256` is a hash.
   * Optional: a store that cannot serve whole packs answers 404 to mirrors, not a wrong file.
   */
  pack?(sha256: string): Promise<SnapshotFile | null>;
}

/** One object as a snapshot lists it: its key, and the size and SHA-256 of its stored bytes. */
export interface SnapshotEntry {
  key: string;
  size: number;
  sha256: string;
}

/** A snapshot file served whole or by byte range (bulk downloads resume with `Range`). */
export interface SnapshotFile {
  readonly size: number;
  /** Changes whenever the file's content may have (size and mtime): keys caches of facts derived from it. */
  readonly version: string;
  /** Bytes `start`..`end` inclusive, streamed. */
  stream(start: number, end: number): NodeJS.ReadableStream;
  /** The whole file (for the small ones: signature, manifest header checks). */
  bytes(): Promise<Buffer>;
}

export interface SnapshotSource {
  /** The snapshot `current` names right now, or null when nothing was published yet. */
  current(): Promise<SnapshotReader | null>;
  /** A kept, complete snapshot by id (older than current included), or null when it is not kept. */
  open(id: string): Promise<SnapshotReader | null>;
  /**
   * Every kept, complete snapshot, oldest first, with a reader of its manifest header that does not
   * open the snapshot (on an object store, opening fetches its indexes): GET /v1/snapshots and the
   * Atom feed. Optional: a source that cannot list answers with its current snapshot alone.
   */
  list?(): Promise<KeptSnapshot[]>;
  close?(): Promise<void>;
}

export interface KeptSnapshot {
  id: string;
  header(): Promise<ManifestHeader>;
}

export interface SnapshotWriter {
  readonly id: string;
  /** Folder the snapshot is written into (not yet published). */
  readonly dir: string;
  put(key: string, bytes: Buffer): Promise<void>;
  putSync(key: string, bytes: Buffer): void;
  /** Write a file beside the objects (manifest, changes, search index). */
  writeFile(name: string, content: string | Buffer | Iterable<string>): Promise<void>;
}
