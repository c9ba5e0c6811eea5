/**
 * Reads and validates the whole catalog except prices (which are streamed by prices.ts): each
 * kind in dependency order, so references are checked against records already accepted. A bad
 * record is skipped, named in the RejectLog with file, line and reason, and records referring to
 * it are rejected in turn. Records are kept as the parsed objects (no copies): at 1,000,000 cards
 * the catalog is about the size of its JSON objects.
 *
 * @example
 *   const catalog = await loadCatalog(source, { maxRejects: 0, onProgress: (kind, n) => log(kind, n) });
 *   catalog.cards.get('mtg-lea-161')?.name // 'Lightning Bolt'
 */
import { createTextPool, type TextPool } from './shared-text.js';
import {
  CURRENCIES,
  type ActivityEventRecord,
  type BinderRecord,
  type CardRecord,
  type CatalogMeta,
  type FigureRecord,
  type FigureSeriesRecord,
  type FxRateRecord,
  type PullObservationRecord,
  type SetRecord,
  type SourceKind,
  type UserRecord,
} from '../../snapshots/records.js';
import type { CatalogSource, SourceLine } from './catalog-source.js';
import { fileOf } from './files.js';
import { createRefIndex, refKey, type RefIndex } from './refs.js';
import { createRejectLog, type RejectLog } from './rejects.js';
import { parseRecord } from './validate.js';
import { createRecordLog, type RecordList } from './record-log.js';
import { isPublishedBinder } from '../render/privacy.js';

export interface LoadedCatalog {
  meta: CatalogMeta;
  /** In source order. */
  sets: SetRecord[];
  /** By `<game>/<code>`. */
  setsByKey: Map<string, SetRecord>;
  /** A Map when loaded from the files, a CardTable (card-table.ts) when taken from a stored catalog. */
  cards: ReadonlyMap<string, CardRecord>;
  figureSeries: Map<string, FigureSeriesRecord>;
  figures: Map<string, FigureRecord>;
  /** Sorted by date, then currency in CURRENCIES order. */
  fxRates: FxRateRecord[];
  users: Map<string, UserRecord>;
  /**
   * The published binders (public binders of public users: render/privacy.ts), then activity and
   * pullObservations: in source order, walked only by the aggregates, so kept compressed off the heap
   * until then (record-log.ts). Every binder is checked and can be rejected, but only the published
   * ones are kept: no document shows another (API.md §2.6), and at a million cards they are a fifth
   * of the binders' bytes, which every compile inflated and parsed again (docs/benchmarks.md).
   */
  publishedBinders: RecordList<BinderRecord>;
  activity: RecordList<ActivityEventRecord>;
  pullObservations: RecordList<PullObservationRecord>;
  /** Every reject so far; streamPrices adds to it, the caller ends with `rejects.finish()`. */
  rejects: RejectLog;
  /**
   * Where each rejected record was rejected, by identity (`card:<id>`, `figure:<id>`,
   * `set:<game>/<code>`, `series:<id>`, `user:<id>`), so later references name the cause.
   */
  rejected: Map<string, string>;
}

export interface LoadOptions {
  /** How many bad records may be skipped (`--max-rejects`); one more fails the load. */
  maxRejects: number;
  /** Called every PROGRESS_EVERY lines of a file and once at its end with the lines read so far. */
  onProgress?: (kind: SourceKind, lines: number) => void;
}

export const PROGRESS_EVERY = 10_000;

/** Every duplicate reason starts with this (the reject keeps the identity of the first line). */
const DUPLICATE = 'duplicate ';

/**
 * Decides on one parsed record: null to accept it (the callback stores it), or the reason to
 * reject it.
 */
type Accept<T> = (record: T, lineNo: number) => string | null;

interface Reader {
  rejects: RejectLog;
  share: TextPool;
  refs: RefIndex;
  onProgress?: (kind: SourceKind, lines: number) => void;
}

export async function loadCatalog(source: CatalogSource, options: LoadOptions): Promise<LoadedCatalog> {
  const rejects = createRejectLog(options.maxRejects);
  const refs = createRefIndex();
  const reader: Reader = { rejects, share: createTextPool(), refs, onProgress: options.onProgress };
  const meta = await source.readMeta();

  const sets: SetRecord[] = [];
  const setsByKey = new Map<string, SetRecord>();
  const setLines = new Map<string, number>();
  await readKind<SetRecord>(source, 'sets', reader, (set, lineNo) => {
    const key = `${set.game}/${set.code}`;
    const first = setLines.get(key);
    if (first !== undefined) return `${DUPLICATE}set ${key} (first on line ${first})`;
    setLines.set(key, lineNo);
    setsByKey.set(key, set);
    sets.push(set);
    return null;
  });

  const cards = new Map<string, CardRecord>();
  await readKind<CardRecord>(source, 'cards', reader, uniqueById(cards, (card) =>
    refs.problem(`set ${card.game}/${card.setCode}`, refKey.set(card.game, card.setCode), setsByKey.has(`${card.game}/${card.setCode}`)),
  ));

  const figureSeries = new Map<string, FigureSeriesRecord>();
  await readKind<FigureSeriesRecord>(source, 'figureSeries', reader, uniqueById(figureSeries, () => null));

  const figures = new Map<string, FigureRecord>();
  await readKind<FigureRecord>(source, 'figures', reader, uniqueById(figures, (figure) =>
    refs.problem(`figure series ${figure.seriesId}`, refKey.series(figure.seriesId), figureSeries.has(figure.seriesId)),
  ));

  const fxRates: FxRateRecord[] = [];
  const fxLines = new Map<string, number>();
  await readKind<FxRateRecord>(source, 'fxRates', reader, (rate, lineNo) => {
    const key = `${rate.date}/${rate.currency}`;
    const first = fxLines.get(key);
    if (first !== undefined) return `${DUPLICATE}${rate.currency} rate for ${rate.date} (first on line ${first})`;
    fxLines.set(key, lineNo);
    fxRates.push(rate);
    return null;
  });
  fxRates.sort((a, b) =>
    a.date < b.date ? -1 : a.date > b.date ? 1 : CURRENCIES.indexOf(a.currency) - CURRENCIES.indexOf(b.currency),
  );

  const users = new Map<string, UserRecord>();
  const handleOwners = new Map<string, { id: string; lineNo: number }>();
  const acceptUser = uniqueById(users, (user) => {
    const owner = user.handle === null ? undefined : handleOwners.get(user.handle);
    return owner === undefined ? null : `handle "${user.handle}" is already used by user ${owner.id} (line ${owner.lineNo})`;
  });
  await readKind<UserRecord>(source, 'users', reader, (user, lineNo) => {
    const reason = acceptUser(user, lineNo);
    if (reason === null && user.handle !== null) handleOwners.set(user.handle, { id: user.id, lineNo });
    return reason;
  });

  const entityProblem = (entity: string, id: string): string | null =>
    refs.problem(`${entity} ${id}`, refKey.entity(entity, id), entity === 'card' ? cards.has(id) : figures.has(id));
  const userProblem = (userId: string | null): string | null =>
    userId === null ? null : refs.problem(`user ${userId}`, refKey.user(userId), users.has(userId));

  const publishedBinders = createRecordLog<BinderRecord>();
  // Accepted binders that are not published are checked like the others (a bad one is a reject) but not kept.
  const keepPublished = {
    push(binder: BinderRecord) {
      if (isPublishedBinder(binder, users.get(binder.userId))) publishedBinders.push(binder);
    },
  };
  await readKind<BinderRecord>(source, 'binders', reader, uniqueInList(keepPublished, (binder) => {
    const owner = userProblem(binder.userId);
    if (owner !== null) return owner;
    for (let i = 0; i < binder.items.length; i += 1) {
      const item = binder.items[i];
      const problem = entityProblem(item.entity, item.id);
      if (problem !== null) return `items[${i}] ${problem}`;
    }
    return null;
  }));

  const activity = createRecordLog<ActivityEventRecord>();
  await readKind<ActivityEventRecord>(source, 'activity', reader, uniqueInList(activity, (event) =>
    userProblem(event.userId) ?? entityProblem(event.entity, event.entityId),
  ));

  const pullObservations = createRecordLog<PullObservationRecord>();
  await readKind<PullObservationRecord>(source, 'pullObservations', reader, uniqueInList(pullObservations, (observation) => {
    const series = refs.problem(`figure series ${observation.seriesId}`, refKey.series(observation.seriesId), figureSeries.has(observation.seriesId));
    if (series !== null) return series;
    const user = userProblem(observation.userId);
    if (user !== null) return user;
    for (const figureId of Object.keys(observation.pulls)) {
      const figure = figures.get(figureId);
      const problem = entityProblem('figure', figureId);
      if (problem !== null) return `pulls ${problem}`;
      if (figure!.seriesId !== observation.seriesId) {
        return `pulls name figure ${figureId} of series ${figure!.seriesId}, not of ${observation.seriesId}`;
      }
    }
    return null;
  }));

  return {
    meta,
    sets,
    setsByKey,
    cards,
    figureSeries,
    figures,
    fxRates,
    users,
    publishedBinders,
    activity,
    pullObservations,
    rejects,
    rejected: refs.rejected,
  };
}

/** Accepts records unique by id into a map, after `references` found nothing wrong. */
function uniqueById<T extends { id: string }>(into: Map<string, T>, references: (record: T) => string | null): Accept<T> {
  const lines = new Map<string, number>();
  return (record, lineNo) => {
    const first = lines.get(record.id);
    if (first !== undefined) return `${DUPLICATE}id ${record.id} (first on line ${first})`;
    const problem = references(record);
    if (problem !== null) return problem;
    lines.set(record.id, lineNo);
    into.set(record.id, record);
    return null;
  };
}

/** Same as uniqueById for kinds kept as a list in source order. */
function uniqueInList<T extends { id: string }>(into: { push(record: T): void }, references: (record: T) => string | null): Accept<T> {
  const byId = new Map<string, T>();
  const accept = uniqueById(byId, references);
  return (record, lineNo) => {
    const reason = accept(record, lineNo);
    if (reason === null) into.push(record);
    return reason;
  };
}

/** The identity a record of a kind is referred to by, when its fields hold one. */
function identityOf(kind: SourceKind, value: Record<string, unknown>): string | null {
  const text = (v: unknown): v is string => typeof v === 'string';
  switch (kind) {
    case 'sets':
      return text(value.game) && text(value.code) ? refKey.set(value.game, value.code) : null;
    case 'cards':
      return text(value.id) ? refKey.card(value.id) : null;
    case 'figures':
      return text(value.id) ? refKey.figure(value.id) : null;
    case 'figureSeries':
      return text(value.id) ? refKey.series(value.id) : null;
    case 'users':
      return text(value.id) ? refKey.user(value.id) : null;
    default:
      return null;
  }
}

async function readKind<T>(source: CatalogSource, kind: SourceKind, reader: Reader, accept: Accept<T>): Promise<void> {
  const file = fileOf(kind);
  let count = 0;
  const reject = (line: SourceLine, reason: string, value?: Record<string, unknown>): void => {
    reader.rejects.add(file, line.lineNo, reason);
    const identity = value === undefined ? null : identityOf(kind, value);
    if (identity !== null) reader.refs.markRejected(identity, `${file}:${line.lineNo}`);
    reader.rejects.check();
  };
  for await (const line of source.lines(kind)) {
    count += 1;
    if (count % PROGRESS_EVERY === 0) reader.onProgress?.(kind, count);
    if (line.problem !== undefined) {
      reject(line, line.problem);
      continue;
    }
    const parsed = parseRecord<T>(kind, line.text);
    if (!parsed.ok) {
      reject(line, parsed.reason, parsed.value);
      continue;
    }
    reader.share(kind, parsed.record as Record<string, unknown>);
    const reason = accept(parsed.record, line.lineNo);
    if (reason !== null) {
      // A duplicate's identity belongs to the accepted first line: references to it still resolve.
      reject(line, reason, reason.startsWith(DUPLICATE) ? undefined : (parsed.record as Record<string, unknown>));
      continue;
    }
    const identity = identityOf(kind, parsed.record as Record<string, unknown>);
    if (identity !== null) reader.refs.forget(identity);
  }
  reader.onProgress?.(kind, count);
}
