/**
 * What the loader needs from a canonical catalog, wherever it lives (a folder or an HTTP export).
 * Both implementations hand out the same lines for the same bytes, so the loader and its tests do
 * not care which one they read.
 *
 * @example
 *   const source = openSource('./catalog');
 *   try {
 *     const meta = await source.readMeta();
 *     for await (const { lineNo, text } of source.lines('cards')) { ... }
 *   } finally {
 *     await source.close();
 *   }
 */
import type { CatalogMeta, SourceKind } from '../../snapshots/records.js';
import type { ByteLine } from './lines.js';

/** One line of an NDJSON file. Blank lines are never handed out, but they still count in lineNo. */
export interface SourceLine {
  /** 1-based line number in the file, for reject messages (`cards.ndjson:17`). */
  lineNo: number;
  /** The line without its `\n` / `\r\n` (and without a UTF-8 byte-order mark on line 1). */
  text: string;
  /**
   * Set when the bytes of the line could not be read as text (not UTF-8, or longer than the line
   * cap); `text` is then unusable and the line must be rejected with this reason.
   */
  problem?: string;
}

export interface CatalogSource {
  /** Where the catalog is read from, for logs and messages (never contains URL credentials). */
  describe(): string;
  /** Reads and checks `meta.json`; a missing or malformed meta is a CatalogError 'invalid_source'. */
  readMeta(): Promise<CatalogMeta>;
  /**
   * Streams the lines of one NDJSON file, never holding the whole file in memory. A missing or
   * empty optional file (users, binders, activity, pull-observations, figure-series, figures)
   * yields nothing; a missing required one throws CatalogError 'invalid_source'.
   */
  lines(kind: SourceKind): AsyncIterable<SourceLine>;
  /**
   * The same lines as bytes, not decoded (blank ones included), in batches (lines.ts
   * splitLineBytes: a batch is valid until the next is asked for): the price stream hashes a line's
   * bytes and decodes only the lines it does not know from the previous compile (prices.ts).
   */
  lineBytes(kind: SourceKind): AsyncIterable<ByteLine[]>;
  /**
   * The file on this machine that `lineBytes(kind)` reads as it is, when there is one (a folder's
   * file; not the HTTP source, whose lines come as they download): another thread may then split and
   * hash the same bytes (hashed-lines.ts).
   */
  linesFile?(kind: SourceKind): string;
  /**
   * Where one catalog file (`meta.json` or a kind's file) is on this machine, or null when the
   * catalog has none: the folder's own file, or the HTTP source's download. The compile hashes them
   * to tell whether the catalog changed since the previous snapshot (files-hash.ts).
   */
  localFile?(file: string): Promise<string | null>;
  /** Releases what the source holds (temp files and connections of the HTTP source). Idempotent. */
  close(): Promise<void>;
}
