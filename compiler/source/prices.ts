/**
 * Streams `prices.ndjson` after loadCatalog: price histories are the bulk of a catalog, so they
 * are never held in memory; each valid line is handed out once, with its raw text and the open hash
 * of that text (the compiler fingerprints it for incremental compiles). Bad lines go to the
 * catalog's RejectLog, which fails the stream as soon as there are more than `maxRejects`.
 *
 * A line whose hash `known` recognizes (a line the previous compile accepted, docs/snapshots.md
 * "Incremental compiles") is not parsed: what `known` returns (entity, id, last day) is enough for
 * the checks that need other records, so it is rejected for the same reasons as when parsed.
 *
 * @example
 *   for await (const line of streamPrices(source, catalog)) render(line.record, line.fingerprint(fx));
 *   const warnings = catalog.rejects.finish();
 */
import { createHash, type Hash } from 'node:crypto';
import type { PriceSeriesRecord } from '../../snapshots/records.js';
import type { CatalogSource } from './catalog-source.js';
import { addDays } from '../../snapshots/dates.js';
import { fileOf } from './files.js';
import { PROGRESS_EVERY, type LoadedCatalog } from './load.js';
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
  /** The line exactly as read (without its newline). */
  text: string;
  /** SHA-1 of the text and a NUL, base64url: the line's key in the stored price lines. */
  key: string;
  /** The parsed series; null when `known` recognized the line (parse it with parseKnownLine). */
  record: PriceSeriesRecord | null;
  /** What `known` returned for the line, or null when it was parsed. */
  known: K | null;
  /**
   * `fingerprint(text, ...more)` of snapshots/codec.ts, continuing the hash already taken of the
   * text for `key` instead of hashing it again. Call it at most once.
   */
  fingerprint(...more: string[]): string;
}

export interface StreamPricesOptions<K extends PriceLineIdentity> {
  onProgress?: (kind: 'prices', lines: number) => void;
  /** Looks up a line by key (and its length, a cheap second check); a hit is not parsed. */
  known?: (key: string, text: string) => K | undefined;
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
  const seen = new Map<string, number>();
  const { asOf } = catalog.meta;
  const known = options.known;
  let count = 0;

  const reasonFor = (line: PriceLineIdentity, lineNo: number): string | null => {
    const key = refKey.entity(line.entity, line.id);
    const exists = line.entity === 'card' ? catalog.cards.has(line.id) : catalog.figures.has(line.id);
    const unknown = refs.problem(`${line.entity} ${line.id}`, key, exists);
    if (unknown !== null) return unknown;
    const first = seen.get(key);
    if (first !== undefined) return `duplicate price series for ${line.entity} ${line.id} (first on line ${first})`;
    seen.set(key, lineNo);
    if (line.end !== null && line.end > asOf) return `the series runs to ${line.end}, after asOf ${asOf} in meta.json`;
    return null;
  };

  for await (const line of source.lines('prices')) {
    count += 1;
    if (count % PROGRESS_EVERY === 0) options.onProgress?.('prices', count);
    let reason = line.problem ?? null;
    if (reason === null) {
      const hash = createHash('sha1').update(line.text).update('\u0000');
      const key = hash.copy().digest('base64url');
      const hit = known?.(key, line.text);
      if (hit !== undefined) {
        reason = reasonFor(hit, line.lineNo);
        if (reason === null) {
          yield priceLine(hit.entity, hit.id, line.text, key, hash, null, hit);
          continue;
        }
      } else {
        const parsed = parseRecord<PriceSeriesRecord>('prices', line.text);
        if (parsed.ok) {
          const r = parsed.record;
          reason = reasonFor({ entity: r.entity, id: r.id, end: seriesEnd(r) }, line.lineNo);
          if (reason === null) {
            yield priceLine<K>(r.entity, r.id, line.text, key, hash, r, null);
            continue;
          }
        } else reason = parsed.reason;
      }
    }
    catalog.rejects.add(file, line.lineNo, reason);
    catalog.rejects.check();
  }
  options.onProgress?.('prices', count);
}

function priceLine<K extends PriceLineIdentity>(
  entity: 'card' | 'figure', id: string, text: string, key: string, hash: Hash, record: PriceSeriesRecord | null, known: K | null,
): PriceLine<K> {
  return {
    entity,
    id,
    text,
    key,
    record,
    known,
    fingerprint(...more) {
      for (const p of more) hash.update(p).update('\u0000');
      return hash.digest('base64url');
    },
  };
}
