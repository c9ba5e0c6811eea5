/**
 * Writes the aggregate documents (oracle, lists, feeds, summary) rendered on the main thread. The
 * input fingerprint of such a document is the hash of its stable JSON: when it equals the previous
 * snapshot's, the object is re-used (its row in the copy of the previous object index is kept,
 * object-table.ts) instead of compressed and written again.
 *
 * A document that depends on a few cards only (an oracle concept: its printings) can skip even the
 * rendering: `putFromCards` fingerprints it from its cards' own input fingerprints (record, set,
 * raw price line, FX quotes, renderer code), which the entity phase has recorded, and renders it
 * only when that differs from the previous snapshot's. At 100,000 cards that is 18,850 oracle
 * documents, of which a 1% price change touches a few hundred.
 *
 * The lists made from a known group of entities (a series' pages, a user's showcase and binder
 * pages) work the same way with `putPagesFrom`: their input is the records they
 * show that are not entities (the set, the user, the binders) plus the input fingerprints of the
 * entities in them, in catalog order (a reordered catalog renders again, never the reverse); every
 * page of the list records that one input, so a list whose input matches re-uses all its previous
 * pages without rendering (issue 17: an incremental compile with 1% of prices changed re-rendered
 * every aggregate before; docs/benchmarks.md).
 *
 * A set's and an artist's pages go one step further with `putPages`: each page records its own
 * input (the list's records, asOf and total, the page number and the fingerprints of the cards on
 * that page, in page order), so a list with one changed card writes only the page that shows it, and
 * a page whose shape is the previous page's is patched from its bytes (page-splice.ts).
 */
import { fingerprint, gzipTransient, sha256Hex, stableJson } from '../../snapshots/codec.js';
import { createPackReader, type PackReader } from '../../snapshots/packs/pack-reader.js';
import { patchPage } from './page-splice.js';
import type { ObjectTable } from './object-table.js';
import type { EntityJob } from './entity-jobs.js';
import type { EntityPool } from './pool.js';
import type { PackOutput } from './pack-output.js';

/**
 * The token of the input the entity phase recorded for a card or figure of this compile (all of a
 * card's range objects carry it; entity-phase.ts), or undefined when the catalog has no such entity.
 */
export type EntityTokens = (entity: 'card' | 'figure', id: string) => string | undefined;

/** An entity an aggregate is made from. */
export interface EntityRef {
  entity: 'card' | 'figure';
  id: string;
  /**
   * Its token, when the caller has it at hand (read by position: price-table.ts `inOrder`); looked
   * up by id otherwise. At a million cards the look-ups by id for the set and artist pages' inputs
   * were about 2.6 s of the main thread (docs/benchmarks.md).
   */
  token?: string;
}

/** A page of a list put with `putPages`. */
export interface ListPage {
  /** Everything the page's bytes depend on. */
  input: string;
  /**
   * What they depend on besides the list's asOf and its items' own content: the list's records and
   * total, the page's number and the ids of its items in order (a fingerprint). A previous page of
   * the same shape is patched instead of rendered.
   */
  shape: () => string;
  /**
   * True when the catalog and the code are the previous snapshot's: a previous page at the same key
   * then has this page's shape, which is taken from its recorded input instead of made.
   */
  shapeIsPrevious: boolean;
  /** The page's asOf as its envelope has it (a timestamp or null). */
  asOf: string | null;
  /**
   * The items whose content changed since the previous snapshot (their entity was rendered again),
   * by position on the page, each with a function that makes it as it is now; null when unknown
   * (the page is then rendered, never patched).
   */
  changed: readonly { at: number; id: string; item: () => unknown }[] | null;
}

/**
 * Bumped when what an aggregate's input covers changes (the wiring in aggregates.ts is not part of
 * the renderer code hash), so no object is re-used under an input that no longer describes it.
 */
const AGGREGATE_INPUTS = 'aggregate-inputs-4';

export interface DocumentSink {
  put(key: string, doc: unknown): void;
  /**
   * `render()` at `key` unless the cards it is made from (and nothing else) are the same as for the
   * previous snapshot's object, which is then re-used without rendering. `cards` in any order, each
   * with its token when the caller has it (EntityRef).
   */
  putFromCards(key: string, cards: readonly { id: string; token?: string }[], render: () => unknown): void;
  /**
   * The input of a document made from `records` (stable JSON of everything it reads that is not an
   * entity) and the entities `refs`: feed it to `putFrom` / `putPagesFrom`. An entity not in the
   * catalog counts as absent (a binder item the catalog lacks is skipped by the renderers).
   */
  inputOf(tag: string, records: readonly unknown[], refs: Iterable<EntityRef>): string;
  /**
   * The shape of a page (ListPage.shape) of the list `tag` made from `records` (stable JSON, as in
   * inputOf), showing the items `ids` in this order.
   */
  shapeOf(tag: string, records: readonly unknown[], ids: readonly string[]): string;
  /**
   * The input of a page (ListPage.input) of the list `tag` made from `records` (as in inputOf) and
   * entities given by their tokens, in page order: a token is made from its entity's whole record,
   * id included, so the ids are not needed besides.
   */
  pageInputOf(tag: string, records: readonly unknown[], tokens: readonly string[]): string;
  /** The token of `ref` (its own, else the one recorded by id), or a stand-in naming it when it has none. */
  tokenOf(ref: EntityRef): string;
  /** `render()` at `key` unless the previous object there was made from the same `input`. */
  putFrom(key: string, input: string, render: () => unknown): void;
  /**
   * The pages of one list: page i at `keyOf(i)` (1-based). Re-used all together when the previous
   * snapshot's page 1 has the same `input` (every page of a list records it); otherwise rendered.
   * Returns the number of pages.
   */
  putPagesFrom(keyOf: (page: number) => string, input: string, render: () => readonly unknown[]): number;
  /**
   * The pages of one list whose pages have inputs of their own: page i at `keyOf(i)` made as
   * `pages[i - 1]` says (ListPage). A page whose previous object was made from the same input is
   * re-used; one of the same shape is patched from the previous page's bytes (page-splice.ts: its
   * asOf and changed items put in place); `render()` (every page, in order) is called once, only
   * when a page must be rendered, and only those pages are compressed and written.
   */
  putPages(keyOf: (page: number) => string, pages: readonly ListPage[], render: () => readonly unknown[]): void;
  /** True when the previous snapshot has an object at `key`. */
  hasPrevious(key: string): boolean;
  /**
   * Keeps the previous snapshot's object at `key` as it is, whatever its input: only for a document
   * the caller knows is made from the same records by the same code (aggregates.ts, an unchanged
   * catalog). False when there is none.
   */
  keep(key: string): boolean;
  /** `keep` for the pages of one list, from page 1 while the previous snapshot has them; returns how many. */
  keepPages(keyOf: (page: number) => string): number;
  /**
   * `keep` for pages 1..`pages` of one list, all or none: false (nothing kept) unless the previous
   * snapshot has exactly those pages.
   */
  keepList(keyOf: (page: number) => string, pages: number): boolean;
  /** `keep` for many keys, looked up together; returns the keys the previous snapshot lacks (not kept). */
  keepAll(keys: readonly string[]): string[];
  /**
   * `keep` for every previous object in key range [from, to) not put yet, when there are exactly
   * `expected`; otherwise keeps none and returns false.
   */
  keepRange(from: string, to: string, expected: number): boolean;
  /**
   * True when documents handed to the render threads are waiting to come back: the caller, which
   * renders synchronously, should `await breathe()` so their replies are written and their arenas
   * free again (otherwise the pool compresses further batches on this thread).
   */
  busy(): boolean;
  breathe(): Promise<void>;
  /** Waits until every document put so far has its row: before keepRange, and at the end. */
  settle(): Promise<void>;
  /** How many documents were handed to the render threads to compress. */
  handedOff(): number;
  /** How many pages were patched from the previous snapshot's (putPages). */
  patched(): number;
}

/**
 * `fingerprint(...parts)` of string parts, hashed in one update: the same hash (fingerprint ends
 * every part with a NUL), without one hash call per part of a list of hundreds of entities.
 */
function joinedFingerprint(parts: string[]): string {
  return fingerprint(parts.join('\u0000'));
}

/** The shape part of a page's recorded input (after its dot: putPages), or null. */
function shapeIn(input: string | null | undefined): string | null {
  const dot = input?.lastIndexOf('.') ?? -1;
  return dot < 0 ? null : input!.slice(dot + 1);
}

/** By id in UTF-16 code unit order (what `Array.prototype.sort` gives strings). */
const byId = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Documents handed to a render thread at once, up to about this many characters of JSON. */
const BATCH_DOCUMENTS = 8;
const BATCH_CHARS = 64 * 1024;
/** Batches in flight before the renderer is asked to let their replies in (a render thread holds six: pool.ts). */
const BUSY_BATCHES = 3;

/**
 * `threads`: the render threads (pool.ts), which then compress the documents while this thread
 * renders the next ones; without them every document is compressed here. `packsDir`: the snapshot
 * root's packs, where a page patched from the previous snapshot's is read (putPages); without it
 * no page is patched.
 */
export function createDocumentSink(
  out: PackOutput, table: ObjectTable, codeHash: string, tokens: EntityTokens, threads: EntityPool | null = null, packsDir: string | null = null,
): DocumentSink {
  /** Re-uses the previous object at `key` when its input was `input`; false when it must be written. */
  const reused = (key: string, input: string): boolean => {
    if (!table.incremental || table.previousInput(key) !== input) return false;
    table.reuse([key], 'aggregate');
    return true;
  };
  let batch: EntityJob[] = [];
  let batchChars = 0;
  let handedOff = 0;
  let failure: unknown = null;
  const submit = () => {
    if (batch.length === 0 || threads === null) return;
    // Not awaited: the pool resolves it once the batch is queued; its objects are written by the
    // pool's onRendered (createRenderThreads), and a failure is thrown by settle().
    threads.submit(batch).catch((err: unknown) => {
      failure ??= err;
    });
    batch = [];
    batchChars = 0;
  };
  // Compressed into the deflater's own buffer, hashed, then copied by the pack writer: no buffer per
  // document. Or handed to a render thread with others, which does the same there.
  const store = (key: string, json: string | Buffer, input: string) => {
    const bytes = gzipTransient(json);
    table.add({ key, size: bytes.length, sha256: sha256Hex(bytes), input, at: out.write(bytes) });
  };
  const hand = (job: EntityJob, chars: number) => {
    batch.push(job);
    batchChars += chars;
    handedOff++;
    if (batch.length >= BATCH_DOCUMENTS || batchChars >= BATCH_CHARS) submit();
  };
  const write = (key: string, json: string, input: string) => {
    if (threads !== null) hand({ kind: 'document', key, json, input }, json.length);
    else store(key, json, input);
  };
  // A page patched from the previous one's bytes: on a render thread with the documents, or here.
  let packs: PackReader | null = null;
  let patched = 0;
  const patch = (job: Extract<EntityJob, { kind: 'patch' }>) => {
    patched++;
    // Its JSON is not in the message: only the changed items count towards the batch's characters.
    if (threads !== null) return hand(job, job.items.reduce((n, i) => n + i.json.length, 0));
    packs ??= createPackReader({ dir: packsDir! });
    store(job.key, patchPage(job, packs), job.input);
  };
  // The input the entity phase recorded for the card or figure (all of a card's range objects carry
  // it), looked up by the catalog's own id.
  const entityInput = (ref: EntityRef): string | undefined => tokens(ref.entity, ref.id);
  // A record object in the inputs of two documents (a user and their binders: the showcase and its
  // binder pages) is serialized once; records are not mutated during the aggregates.
  const serialized = new WeakMap<object, string>();
  const recordJson = (r: unknown): string => {
    if (r === null || typeof r !== 'object') return stableJson(r);
    let json = serialized.get(r);
    if (json === undefined) serialized.set(r, (json = stableJson(r)));
    return json;
  };
  /** The fingerprint of a list page made from `records` (stable JSON) and `items` (strings, in order). */
  const listFingerprint = (tag: string, records: readonly unknown[], items: readonly string[]): string => {
    const parts: string[] = [codeHash, AGGREGATE_INPUTS, tag];
    for (const r of records) parts.push(recordJson(r));
    for (const item of items) parts.push(item);
    return joinedFingerprint(parts);
  };
  const hasPrevious = (key: string): boolean => table.incremental && table.previousInput(key) !== undefined;
  const keep = (key: string): boolean => {
    if (!hasPrevious(key)) return false;
    table.reuse([key], 'aggregate');
    return true;
  };
  return {
    put(key, doc) {
      const json = stableJson(doc);
      const input = fingerprint(codeHash, json);
      if (!reused(key, input)) write(key, json, input);
    },
    putFromCards(key, cards, render) {
      // The ids are sorted so the fingerprint does not depend on the catalog's order.
      const parts: string[] = [codeHash, 'cards:'];
      for (const { id, token } of [...cards].sort(byId)) {
        const input = token ?? entityInput({ entity: 'card', id });
        if (input === undefined) throw new Error(`${key} is made from card ${id}, which has no recorded input`);
        parts.push(id, input);
      }
      const input = joinedFingerprint(parts);
      if (!reused(key, input)) write(key, stableJson(render()), input);
    },
    inputOf(tag, records, refs) {
      const parts: string[] = [codeHash, AGGREGATE_INPUTS, tag];
      for (const r of records) parts.push(recordJson(r));
      for (const ref of refs) parts.push(ref.entity, ref.id, ref.token ?? entityInput(ref) ?? '-');
      return joinedFingerprint(parts);
    },
    // A page's input (its cards' tokens) and its shape (their ids) are the same kind of fingerprint.
    pageInputOf: (tag, records, tokens) => listFingerprint(tag, records, tokens),
    tokenOf: (ref) => ref.token ?? entityInput(ref) ?? `-${ref.entity}:${ref.id}`,
    shapeOf: (tag, records, ids) => listFingerprint(tag, records, ids),
    putFrom(key, input, render) {
      if (!reused(key, input)) write(key, stableJson(render()), input);
    },
    putPagesFrom(keyOf, input, render) {
      if (table.incremental && table.previousInput(keyOf(1)) === input) {
        let page = 1;
        while (reused(keyOf(page), input)) page++;
        return page - 1;
      }
      const pages = render();
      pages.forEach((doc, i) => write(keyOf(i + 1), stableJson(doc), input));
      return pages.length;
    },
    hasPrevious,
    keep,
    keepPages(keyOf) {
      let page = 1;
      while (keep(keyOf(page))) page++;
      return page - 1;
    },
    keepList(keyOf, pages) {
      if (!table.incremental) return false;
      const keys = Array.from({ length: pages }, (_, i) => keyOf(i + 1));
      // One statement for the list: its pages, and the page after the last, which must not be there.
      const found = table.previousInputs([...keys, keyOf(pages + 1)]);
      if (found.size !== pages || !keys.every((k) => found.has(k))) return false;
      table.reuse(keys, 'aggregate');
      return true;
    },
    keepRange: (from, to, expected) => {
      // The range's documents handed to the threads must have their rows first (they are "put").
      if (batch.length > 0 || (threads !== null && threads.inFlight() > 0)) throw new Error('keepRange before the documents put were settled');
      return table.incremental && table.keepRange(from, to, expected);
    },
    busy: () => threads !== null && threads.inFlight() >= BUSY_BATCHES,
    handedOff: () => handedOff,
    patched: () => patched,
    breathe: () => new Promise<void>((resolve) => setImmediate(resolve)),
    async settle() {
      submit();
      await threads?.settle();
      packs?.close();
      packs = null;
      if (failure !== null) throw failure;
    },
    keepAll(keys) {
      if (!table.incremental) return [...keys];
      const found = table.previousInputs(keys);
      const kept = keys.filter((k) => found.has(k));
      if (kept.length > 0) table.reuse(kept, 'aggregate');
      return kept.length === keys.length ? [] : keys.filter((k) => !found.has(k));
    },
    putPages(keyOf, pages, render) {
      let rendered: readonly unknown[] | null = null;
      pages.forEach((page, i) => {
        const key = keyOf(i + 1);
        // Recorded with its shape after a dot (fingerprints are base64url): the next compile's patch test.
        const previous = table.previousPlace(key);
        const recorded = page.shapeIsPrevious ? shapeIn(previous?.input) : null;
        const shape = recorded ?? page.shape();
        const input = `${page.input}.${shape}`;
        if (previous?.input === input) {
          table.reuse([key], 'aggregate');
          return;
        }
        if (packsDir !== null && previous !== undefined && page.changed !== null && previous.input?.endsWith(`.${shape}`)) {
          const items = page.changed.map((c) => ({ at: c.at, id: c.id, json: stableJson(c.item()) }));
          patch({ kind: 'patch', key, pack: previous.pack, offset: previous.offset, length: previous.length, asOf: JSON.stringify(page.asOf), items, input });
          return;
        }
        rendered ??= render();
        if (rendered.length !== pages.length) throw new Error(`${key}: ${rendered.length} pages rendered for ${pages.length} inputs`);
        write(key, stableJson(rendered[i]), input);
      });
    },
  };
}
