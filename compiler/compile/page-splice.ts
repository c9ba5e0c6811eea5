/**
 * A list page of the previous snapshot made into this compile's page without rendering it again:
 * its `asOf` replaced and the items whose content changed put in place of their old JSON, every other
 * byte kept (issue 17: a 1% price change rewrites about 9,500 set pages and 8,000 artist pages at a
 * million cards, each of ~77 card summaries of which one or two changed; rendering and serializing
 * them all again was most of the aggregates' time on the main thread).
 *
 * Valid only for a page whose bytes depend on nothing but the list's asOf, its items and what the
 * caller's page shape covers (document-sink.ts `putPages`), written by the same code: the result is
 * then byte for byte the page rendered afresh (test/compiler/compile/page-splice.test.ts). A page
 * that does not have the layout stableJson gives an envelope (`{"apiVersion":…,"asOf":…,"data":[…`)
 * or whose item at a changed position is not the one expected is refused with `corrupt_object`.
 *
 * Works on the inflated bytes, not on a parsed page: only the items up to the last changed one are
 * scanned (their boundaries), the rest is copied.
 *
 * @example
 *   splicePage(previousJson, '"2026-11-21T00:00:00.000Z"', [{ at: 3, id: 'mtg-dre-215', json: '{"artist":…}' }])
 */
import { CatalogError } from '../../snapshots/errors.js';
import { gunzip } from '../../snapshots/codec.js';
import type { PackReader } from '../../snapshots/packs/pack-reader.js';

/** An item of the page that changed: its position in `data`, its id (checked) and its new JSON. */
export interface SplicedItem {
  at: number;
  id: string;
  json: string;
}

/** A page to patch: where the previous page's stored (gzip) bytes are, its new asOf's JSON, its changed items. */
export interface PagePatch {
  key: string;
  pack: string;
  offset: number;
  length: number;
  asOf: string;
  items: SplicedItem[];
}

/**
 * The patched page's JSON: the previous page read from its pack, inflated and spliced. The one
 * place both patchers (the render thread, entity-jobs.ts; the main thread, document-sink.ts) do it.
 */
export function patchPage(patch: PagePatch, packs: PackReader): Buffer {
  return splicePage(patch.key, gunzip(packs.read(patch.pack, patch.offset, patch.length)), patch.asOf, patch.items);
}

const HEAD = Buffer.from('{"apiVersion":"v1","asOf":');
const DATA = Buffer.from(',"data":[');
const NULL = Buffer.from('null');

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA_BYTE = 0x2c;

/**
 * `page` (the previous page's JSON, UTF-8) with `asOfJson` (the JSON of the new asOf: a string or
 * null) and each of `items` (in any order, positions distinct) in place. `key` names the page in errors.
 */
export function splicePage(key: string, page: Buffer, asOfJson: string, items: readonly SplicedItem[]): Buffer {
  const refuse = (why: string) =>
    new CatalogError('corrupt_object', `${key}: the previous snapshot's page cannot be patched (${why}); run \`catalog verify\` on the snapshot root, or compile into an empty root`);
  if (page.length < HEAD.length || page.compare(HEAD, 0, HEAD.length, 0, HEAD.length) !== 0) throw refuse('not an envelope');
  let p = HEAD.length;
  // The asOf is null or a timestamp, a string without escapes.
  if (page[p] === QUOTE) {
    const end = page.indexOf(QUOTE, p + 1);
    if (end < 0 || page.subarray(p + 1, end).includes(BACKSLASH)) throw refuse('asOf is not a plain string');
    p = end + 1;
  } else if (page.compare(NULL, 0, NULL.length, p, p + NULL.length) === 0) {
    p += NULL.length;
  } else throw refuse('asOf is neither a string nor null');
  if (page.compare(DATA, 0, DATA.length, p, p + DATA.length) !== 0) throw refuse('no data array after asOf');
  p += DATA.length;

  const sorted = [...items].sort((a, b) => a.at - b.at);
  const pieces: Buffer[] = [HEAD, Buffer.from(asOfJson), DATA];
  // `from`: the first byte not yet copied; `index`: the position of the item starting at `p`.
  let from = p;
  let index = 0;
  for (const item of sorted) {
    if (!Number.isInteger(item.at) || item.at < index) throw refuse(`item position ${item.at} twice or out of order`);
    // Skip to the item's start.
    for (; index < item.at; index++) {
      p = afterItem(page, p, refuse);
      if (page[p] !== COMMA_BYTE) throw refuse(`no item at position ${item.at}`);
      p++;
    }
    const start = p;
    const end = afterItem(page, start, refuse);
    // The item's own id (a card summary has no nested object before it): a wrong position is refused.
    const idAt = page.indexOf(`"id":${JSON.stringify(item.id)}`, start, 'utf8');
    if (idAt < 0 || idAt >= end) throw refuse(`the item at position ${item.at} is not ${item.id}`);
    pieces.push(page.subarray(from, start), Buffer.from(item.json));
    // The comma after it is copied with the next stretch; `p` moves to the next item's start.
    from = p = end;
    index++;
    if (page[p] === COMMA_BYTE) p++;
    else if (page[p] !== CLOSE_ARRAY) throw refuse('an item not followed by a comma or the end of the data');
  }
  pieces.push(page.subarray(from));
  return Buffer.concat(pieces);
}

/** The position after the JSON object starting at `p` (strings and nesting followed). */
function afterItem(page: Buffer, p: number, refuse: (why: string) => Error): number {
  if (page[p] !== OPEN) throw refuse(page[p] === CLOSE_ARRAY ? 'fewer items than expected' : 'an item that is not an object');
  let depth = 0;
  const n = page.length;
  while (p < n) {
    const b = page[p++];
    if (b === QUOTE) {
      // To the closing quote: one not preceded by an odd number of backslashes.
      for (;;) {
        const q = page.indexOf(QUOTE, p);
        if (q < 0) throw refuse('an unterminated string');
        let slashes = 0;
        while (page[q - 1 - slashes] === BACKSLASH) slashes++;
        p = q + 1;
        if (slashes % 2 === 0) break;
      }
    } else if (b === OPEN || b === OPEN_ARRAY) depth++;
    else if (b === CLOSE || b === CLOSE_ARRAY) {
      if (--depth === 0) return p;
    }
  }
  throw refuse('an unterminated item');
}
