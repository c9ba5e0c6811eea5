/**
 * Streams `prices.ndjson` after loadCatalog: price histories are the bulk of a catalog, so they
 * are never held in memory; each valid line is handed out once, with the SHA-1 of its bytes (the
 * compiler fingerprints it for incremental compiles). Bad lines go to the catalog's RejectLog, which
 * fails the stream as soon as there are more than `maxRejects`.
 *
 * A line whose hash `known` recognizes (a line the previous compile accepted, docs/snapshots.md
 * "Incremental compiles") is neither decoded nor parsed: what `known` returns (entity, id, last day)
 * is enough for the checks that need other records, so it is rejected for the same reasons as when
 * parsed. The hash is taken of the bytes as read, so an unchanged line costs no string at all (at a
 * million cards the decoded lines were 2.7 GB of short-lived strings per compile).
 *
 * @example
 *   for await (const line of streamPrices(source, catalog)) render(line.record, line.fingerprint(fx));
 *   const warnings = catalog.rejects.finish();
 */
import { hash } from 'node:crypto';
import type { PriceSeriesRecord } from '../../snapshots/records.js';
import { fingerprint } from '../../snapshots/codec.js';
import type { CatalogSource } from './catalog-source.js';
import { addDays } from '../../snapshots/dates.js';
import { fileOf } from './files.js';
import { PROGRESS_EVERY, type LoadedCatalog } from './load.js';
import { decodeLine, type ByteLine } from './lines.js';
import { createRefIndex, refKey } from './refs.js';
import { parseRecord } from './validate.js';

/** What the checks against other records need from a price line. */
export interface PriceLineIdentity {
  entity: 'card' | 'figure';
  id: string;
  /** Last day of the series (`start` + length - 1), or null for an empty series. */
  end: string | null;
}

export interface PriceLine<K extends PriceLineIdentity = PriceLineIdentity> {
  entity: 'card' | 'figure';
  id: string;
  /**
   * The line exactly as read (without its newline), decoded on first use. A line `known` recognized
   * is decoded from a buffer that is filled again by the next line: read `text` before asking for it.
   */
  readonly text: string;
  /** SHA-1 of the line's bytes, base64url: the line's key in the stored price lines. */
  key: string;
  /** The line's length in bytes. */
  size: number;
  /** The parsed series; null when `known` recognized the line (parse it with parseKnownLine). */
  record: PriceSeriesRecord | null;
  /** What `known` returned for the line, or null when it was parsed. */
  known: K | null;
  /** The entity's slot in `seen` when StreamPricesOptions.slotOf gave it (a known line), else -1. */
  slot: number;
  /**
   * `fingerprint(key, ...more)` of snapshots/codec.ts: the line's part of its entity's input. The
   * key stands for the bytes (SHA-1 of them), so the line is not hashed twice.
   */
  fingerprint(...more: string[]): string;
}

/** The line each entity's accepted series is on, by id (a Map's get and set; compile/price-table.ts keeps it in its slots). */
export interface LineMarks {
  get(id: string): number | undefined;
  set(id: string, lineNo: number): unknown;
  /**
   * `get`, then `set` when there was none, in one look-up: the line recorded before, or undefined
   * (and `lineNo` is recorded). Optional: the stream uses it for lines it need not check further.
   */
  claim?(id: string, lineNo: number): number | undefined;
  /** `claim` for the entity in `slot` (StreamPricesOptions.slotOf): no look-up by id. */
  claimAt?(slot: number, lineNo: number): number | undefined;
}

/** The line number of each entity's accepted series, by entity and id. */
export interface PricedEntities {
  card: LineMarks;
  figure: LineMarks;
}

export interface StreamPricesOptions<K extends PriceLineIdentity> {
  onProgress?: (kind: 'prices', lines: number) => void;
  /**
   * Filled with the line each accepted series is on, by entity and id (the duplicate check keeps it
   * anyway): the caller learns which entities have a price line without a set of its own.
   */
  seen?: PricedEntities;
  /** Looks up a line by key (and its length in bytes, a cheap second check); a hit is not decoded or parsed. */
  known?: (key: string, size: number) => K | undefined;
  /**
   * Every line `known` recognizes was accepted by a compile of these same catalog files (their stored
   * catalog was taken: compile/stored-catalog.ts), so its entity is in the catalog and its series ends
   * by asOf: only the duplicate check is left to make for it (at a million cards, one look-up fewer
   * per line in the million-entry map of cards).
   */
  knownAccepted?: boolean;
  /**
   * With `knownAccepted`, the slot of a known line's entity in `seen` (its place in the catalog the
   * line was stored from, which is this one), or -1 when it has none: its duplicate check is then a
   * claim at that slot (LineMarks.claimAt), with no look-up by id in a million-entry map.
   */
  slotOf?: (hit: K) => number;
  /**
   * With `knownAccepted`, offered each line before `known` (its key, length in bytes and number):
   * true when the caller took it whole, so nothing is yielded for it. The caller takes only a line
   * it recognizes as stored and whose duplicate check it made itself (`seen`'s claimAt found the
   * entity's slot free and recorded `lineNo`); for any other it returns false having changed
   * nothing, and the line goes the usual way. At a million cards an unchanged line yielded, looked up
   * as an object and handled one by one was most of the price stream's cost (docs/benchmarks.md).
   */
  take?: (key: string, size: number, lineNo: number) => boolean;
  /**
   * The price file's lines, when the caller has them split (and hashed: ByteLine `key`) elsewhere
   * (hashed-lines.ts); by default `source.lineBytes('prices')`. The same lines either way.
   */
  lines?: AsyncIterable<ByteLine[]>;
}

/** The last day of a series, as the asOf check reads it (null for an empty series). */
export function seriesEnd(record: PriceSeriesRecord): string | null {
  return record.usdCents.length > 0 ? addDays(record.start, record.usdCents.length - 1) : null;
}

/** The series of a line `known` recognized: it was valid when stored, so it parses. */
export function parseKnownLine(text: string): PriceSeriesRecord {
  const parsed = parseRecord<PriceSeriesRecord>('prices', text);
  if (!parsed.ok) throw new Error(`a stored price line no longer parses (${parsed.reason})`);
  return parsed.record;
}

export async function* streamPrices<K extends PriceLineIdentity = PriceLineIdentity>(
  source: CatalogSource,
  catalog: LoadedCatalog,
  options: StreamPricesOptions<K> = {},
): AsyncGenerator<PriceLine<K>> {
  const file = fileOf('prices');
  const refs = createRefIndex(catalog.rejected);
  // The line each entity's series was first seen on, by entity and id: no key string per line.
  const seen: PricedEntities = options.seen ?? { card: new Map(), figure: new Map() };
  const { asOf } = catalog.meta;
  const known = options.known;
  let count = 0;

  // The series rejected for running past asOf (rare): a later line for the same entity is still a duplicate.
  const late = { card: new Map<string, number>(), figure: new Map<string, number>() };

  const duplicate = (line: PriceLineIdentity, first: number) => `duplicate price series for ${line.entity} ${line.id} (first on line ${first})`;
  /** Why a series is rejected, or null (it is then recorded as seen). `checked`: it is known to exist and end by asOf. */
  const reasonFor = (line: PriceLineIdentity, lineNo: number, checked = false): string | null => {
    if (!checked) {
      const exists = line.entity === 'card' ? catalog.cards.has(line.id) : catalog.figures.has(line.id);
      if (!exists) return refs.problem(`${line.entity} ${line.id}`, refKey.entity(line.entity, line.id), false);
    }
    const marks = seen[line.entity];
    // A checked line cannot run late: with no series rejected as late, one look-up checks and records
    // it (two were about 1.5 s of a million-card incremental compile).
    if (checked && marks.claim !== undefined && late[line.entity].size === 0) {
      const first = marks.claim(line.id, lineNo);
      return first === undefined ? null : duplicate(line, first);
    }
    // `late` is nearly always empty: no second look-up per line in a million-entry map then.
    const first = marks.get(line.id) ?? (late[line.entity].size > 0 ? late[line.entity].get(line.id) : undefined);
    if (first !== undefined) return duplicate(line, first);
    if (!checked && line.end !== null && line.end > asOf) {
      late[line.entity].set(line.id, lineNo);
      return `the series runs to ${line.end}, after asOf ${asOf} in meta.json`;
    }
    marks.set(line.id, lineNo);
    return null;
  };
  const knownAccepted = options.knownAccepted === true;
  const slotOf = knownAccepted ? options.slotOf : undefined;
  const take = knownAccepted ? options.take : undefined;

  // Lines come a chunk's worth at a time (lines.ts): one step of the async iteration per batch.
  for await (const batch of options.lines ?? source.lineBytes('prices')) {
    for (const line of batch) {
      count += 1;
      if (count % PROGRESS_EVERY === 0) options.onProgress?.('prices', count);
      let reason = line.problem ?? null;
      if (reason === null) {
        const { bytes } = line;
        const key = line.key ?? hash('sha1', bytes, 'base64url');
        // A line taken is a checked line: only while no series was rejected as late (reasonFor).
        if (take !== undefined && late.card.size === 0 && late.figure.size === 0 && take(key, bytes.length, line.lineNo)) continue;
        const hit = known?.(key, bytes.length);
        if (hit !== undefined) {
          const slot = slotOf?.(hit) ?? -1;
          const marks = seen[hit.entity];
          if (slot >= 0 && marks.claimAt !== undefined && late[hit.entity].size === 0) {
            // reasonFor of a checked line, by slot.
            const first = marks.claimAt(slot, line.lineNo);
            reason = first === undefined ? null : duplicate(hit, first);
          } else reason = reasonFor(hit, line.lineNo, knownAccepted);
          if (reason === null) {
            yield priceLine(hit.entity, hit.id, bytes, null, key, null, hit, slot);
            continue;
          }
        } else {
          const decoded = decodeLine(bytes);
          // A blank line is skipped (still counted in the line numbers).
          if (decoded === null) continue;
          if ('problem' in decoded) reason = decoded.problem;
          else {
            const parsed = parseRecord<PriceSeriesRecord>('prices', decoded.text);
            if (parsed.ok) {
              const r = parsed.record;
              reason = reasonFor({ entity: r.entity, id: r.id, end: seriesEnd(r) }, line.lineNo);
              if (reason === null) {
                yield priceLine<K>(r.entity, r.id, bytes, decoded.text, key, r, null);
                continue;
              }
            } else reason = parsed.reason;
          }
        }
      }
      catalog.rejects.add(file, line.lineNo, reason);
      catalog.rejects.check();
    }
  }
  options.onProgress?.('prices', count);
}

function priceLine<K extends PriceLineIdentity>(
  entity: 'card' | 'figure', id: string, bytes: Buffer, text: string | null, key: string, record: PriceSeriesRecord | null, known: K | null, slot = -1,
): PriceLine<K> {
  return new StreamedPriceLine(entity, id, bytes, text, key, record, known, slot);
}

/**
 * A class rather than an object literal with a getter and closures: one object per line instead of
 * four (a million lines per compile at a million cards).
 */
class StreamedPriceLine<K extends PriceLineIdentity> implements PriceLine<K> {
  readonly size: number;

  constructor(
    readonly entity: 'card' | 'figure',
    readonly id: string,
    private readonly bytes: Buffer,
    private decoded: string | null,
    readonly key: string,
    readonly record: PriceSeriesRecord | null,
    readonly known: K | null,
    readonly slot: number,
  ) {
    this.size = bytes.length;
  }

  get text(): string {
    // A known line was valid UTF-8 when it was stored, and its bytes are the same (same SHA-1).
    return (this.decoded ??= this.bytes.toString('utf8'));
  }

  fingerprint(...more: string[]): string {
    return fingerprint(this.key, ...more);
  }
}
