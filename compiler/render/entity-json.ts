/**
 * The canonical JSON text (snapshots/codec.ts `stableJson`: keys sorted at every depth) of the blocks
 * card and figure documents are made of, written directly with the keys in sorted order by
 * construction. The card and figure renderers build their documents from these pieces instead of
 * building objects that `stableJson` then walks, checks and copies: that was about a fifth of the
 * render worker's CPU (docs/benchmarks.md, "The full packed compile at 0.6").
 *
 * Values go through the same primitives JSON.stringify uses (a string's JSON.stringify, a finite
 * number's `String`, `null` for non-finite ones), so the text is the same bytes. A value of a type the
 * record types do not allow (an `undefined` field, a number where a string belongs) throws
 * NOT_CANONICAL and the renderer falls back to `stableJson` of the object document: byte-identity does
 * not depend on the source validation. test/compiler/render/entity-json.test.ts compares both paths.
 *
 * @example
 *   str('a"b')   // '"a\\"b"';   num(0.1 + 0.2) // '0.30000000000000004';   str(null) // 'null'
 */
import { dayTimestamp } from '../../snapshots/dates.js';
import { API_VERSION, SCHEMA_VERSION } from '../../snapshots/envelope.js';
import type { Range } from '../../snapshots/records.js';
import type { FxBlock, FxProvenance, MarketPrices } from './price-block.js';
import { forEachPoint, historyBlock, historyPlan, windowAggregates, type DailyPrices, type HistoryBlock, type PriceAggregates, type Resolution } from './price-history.js';

/** Thrown when a value is not of the type the fast path writes; the caller uses stableJson instead. */
export const NOT_CANONICAL = Symbol('not canonical');

/** A string or null, as JSON.stringify writes it. */
export function str(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null) return 'null';
  throw NOT_CANONICAL;
}

/** A number or null, as JSON.stringify writes it (NaN and the infinities become null, -0 becomes 0). */
export function num(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (value === null) return 'null';
  throw NOT_CANONICAL;
}

function bool(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  throw NOT_CANONICAL;
}

/** An envelope without page and warnings, around the canonical text of its data: `[head, tail]`. */
export function envelopeJson(kind: string, asOf: string | null): [head: string, tail: string] {
  return [`{"apiVersion":${str(API_VERSION)},"asOf":${str(asOf)},"data":`, `,"kind":${str(kind)},"page":null,"schemaVersion":${num(SCHEMA_VERSION)},"warnings":[]}`];
}

export function aggregatesJson(a: PriceAggregates): string {
  return `{"avgCents":${num(a.avgCents)},"changeCents":${num(a.changeCents)},"changePct":${num(a.changePct)},"maxCents":${num(a.maxCents)},"minCents":${num(a.minCents)}}`;
}

/** `[["<timestamp>",<cents>],...]`: what JSON.stringify writes for the points. */
function pointsJson(points: HistoryBlock['points']): string {
  let out = '[';
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    out += (i === 0 ? '[' : ',[') + str(p[0]) + ',' + num(p[1]) + ']';
  }
  return out + ']';
}

export function historyJson(h: HistoryBlock): string {
  return historyText(h.aggregates, h.from, h.name, pointsJson(h.points), h.resolution, h.to);
}

function historyText(aggregates: PriceAggregates, from: string | null, name: Range, points: string, resolution: Resolution, to: string | null): string {
  return `{"aggregates":${aggregatesJson(aggregates)},"from":${str(from)},"name":${str(name)},"points":${points},"resolution":${str(resolution)},"to":${str(to)}}`;
}

/**
 * `["<timestamp>",` of a day: the start of a point's text. A day's timestamp is digits and
 * `-:.TZ`, which JSON.stringify writes between quotes unchanged. Bounded like dayTimestamp's memo.
 */
const pointHeads = new Map<number, string>();

function pointHead(day: number): string {
  let head = pointHeads.get(day);
  if (head === undefined) {
    head = `["${dayTimestamp(day)}",`;
    if (pointHeads.size < 30_000) pointHeads.set(day, head);
  }
  return head;
}

/** historyJson(historyBlock(prices, range, maxPoints)), with the points written as text directly. */
export function historyJsonOf(prices: DailyPrices | null, range: Range, maxPoints: number): string {
  if (prices === null) return historyJson(historyBlock(null, range, maxPoints));
  const { window, resolution } = historyPlan(prices, range, maxPoints);
  let points = '';
  forEachPoint(prices, window, resolution, (day, cents) => {
    points += (points === '' ? '[' : ',') + pointHead(day) + num(cents) + ']';
  });
  points = points === '' ? '[]' : points + ']';
  return historyText(windowAggregates(prices, window), dayTimestamp(window.fromDay), range, points, resolution, dayTimestamp(window.toDay));
}

export function pricesJson(p: MarketPrices | null): string {
  if (p === null) return 'null';
  return (
    `{"change24hCents":${num(p.change24hCents)},"marketCents":${num(p.marketCents)},"marketCentsAud":${num(p.marketCentsAud)},` +
    `"marketCentsCad":${num(p.marketCentsCad)},"marketCentsEur":${num(p.marketCentsEur)},"marketCentsGbp":${num(p.marketCentsGbp)},` +
    `"previousCents":${num(p.previousCents)},"priceDate":${str(p.priceDate)},"synthetic":${bool(p.synthetic)},"velocity24h":${num(p.velocity24h)}}`
  );
}

function provenanceJson(q: FxProvenance | null): string {
  if (q === null) return 'null';
  return `{"date":${str(q.date)},"rate":${num(q.rate)},"source":${str(q.source)}}`;
}

export function fxJson(fx: FxBlock | null): string {
  if (fx === null) return 'null';
  return `{"aud":${provenanceJson(fx.aud)},"cad":${provenanceJson(fx.cad)},"eur":${provenanceJson(fx.eur)},"gbp":${provenanceJson(fx.gbp)}}`;
}
