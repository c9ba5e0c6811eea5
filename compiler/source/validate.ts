/**
 * Per-kind field rules of the source format (docs/source-format.md is the user's view of this
 * table), plus the checks that need only the record itself. Checks that need other records
 * (references, uniqueness) live in load.ts and prices.ts.
 *
 * @example
 *   parseRecord('cards', '{"id":"x"}') // { ok: false, reason: 'missing required field "game"' }
 */
import { ACTIVITY_TYPES, CURRENCIES, FIGURE_RARITIES, GAMES, type SourceKind } from '../../snapshots/records.js';
import {
  ANY_TEXT,
  BOOLEAN,
  checkFields,
  COUNT,
  DATE,
  DATE_OR_INSTANT,
  HTTP_URL,
  ID,
  isPlainObject,
  oneOf,
  POSITIVE_NUMBER,
  show,
  SLUG,
  TEXT,
  type FieldRule,
  type FieldType,
} from './fields.js';

const ENTITY = oneOf(['card', 'figure']);

const BINDER_ITEMS: FieldType = {
  expect: 'an array of { "entity": "card" | "figure", "id": <id> }',
  check(value) {
    if (!Array.isArray(value)) return '';
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i];
      if (!isPlainObject(item)) return `items[${i}] is ${show(item)}, not an object`;
      if (ENTITY.check(item.entity) !== null) return `items[${i}].entity is ${show(item.entity)}`;
      if (ID.check(item.id) !== null) return `items[${i}].id is ${show(item.id)}`;
    }
    return null;
  },
};

const PULLS: FieldType = {
  expect: 'an object of figure id -> non-negative integer count',
  check(value) {
    if (!isPlainObject(value)) return '';
    for (const [figureId, count] of Object.entries(value)) {
      if (ID.check(figureId) !== null) return `key ${show(figureId)} is not a figure id`;
      if (COUNT.check(count) !== null) return `pulls[${show(figureId)}] is ${show(count)}`;
    }
    return null;
  },
};

const USD_CENTS: FieldType = {
  expect: 'an array of non-negative integer cents or null',
  check(value) {
    if (!Array.isArray(value)) return '';
    for (let i = 0; i < value.length; i += 1) {
      const cents: unknown = value[i];
      if (cents !== null && COUNT.check(cents) !== null) return `usdCents[${i}] is ${show(cents)}`;
    }
    return null;
  },
};

/** Field rules per kind, in the order they are checked (the first problem is the reason). */
export const FIELD_RULES: Record<SourceKind, readonly FieldRule[]> = {
  sets: [
    { name: 'game', type: oneOf(GAMES) },
    { name: 'code', type: SLUG },
    { name: 'name', type: TEXT },
    { name: 'releasedAt', type: DATE, nullable: true },
    { name: 'series', type: ANY_TEXT, nullable: true },
    { name: 'printedTotal', type: COUNT, nullable: true },
  ],
  cards: [
    { name: 'id', type: ID },
    { name: 'game', type: oneOf(GAMES) },
    { name: 'setCode', type: SLUG },
    { name: 'name', type: TEXT },
    { name: 'number', type: TEXT },
    { name: 'rarity', type: TEXT, nullable: true },
    { name: 'artist', type: ANY_TEXT, nullable: true },
    { name: 'oracleId', type: ID, nullable: true },
    { name: 'imageUrl', type: HTTP_URL, nullable: true },
    { name: 'releasedAt', type: DATE, nullable: true },
    { name: 'addedAt', type: DATE },
    { name: 'watchers', type: COUNT },
  ],
  figureSeries: [
    { name: 'id', type: ID },
    { name: 'name', type: TEXT },
    { name: 'manufacturer', type: ANY_TEXT, nullable: true },
    { name: 'releasedAt', type: DATE, nullable: true },
  ],
  figures: [
    { name: 'id', type: ID },
    { name: 'seriesId', type: ID },
    { name: 'name', type: TEXT },
    { name: 'rarity', type: oneOf(FIGURE_RARITIES), nullable: true },
    { name: 'imageUrl', type: HTTP_URL, nullable: true },
    { name: 'releasedAt', type: DATE, nullable: true },
    { name: 'addedAt', type: DATE },
    { name: 'watchers', type: COUNT },
  ],
  fxRates: [
    { name: 'date', type: DATE },
    { name: 'currency', type: oneOf(CURRENCIES) },
    { name: 'perUsd', type: POSITIVE_NUMBER },
    { name: 'source', type: TEXT },
  ],
  users: [
    { name: 'id', type: ID },
    { name: 'handle', type: SLUG, nullable: true },
    { name: 'displayName', type: ANY_TEXT, nullable: true },
    { name: 'showcase', type: BOOLEAN },
    { name: 'anonymous', type: BOOLEAN },
    { name: 'joinedAt', type: DATE_OR_INSTANT },
  ],
  binders: [
    { name: 'id', type: ID },
    { name: 'userId', type: ID },
    { name: 'name', type: TEXT },
    { name: 'public', type: BOOLEAN },
    { name: 'items', type: BINDER_ITEMS },
    { name: 'updatedAt', type: DATE_OR_INSTANT },
  ],
  activity: [
    { name: 'id', type: ID },
    { name: 'userId', type: ID, nullable: true },
    { name: 'type', type: oneOf(ACTIVITY_TYPES) },
    { name: 'entity', type: ENTITY },
    { name: 'entityId', type: ID },
    { name: 'at', type: DATE_OR_INSTANT },
  ],
  pullObservations: [
    { name: 'id', type: ID },
    { name: 'seriesId', type: ID },
    { name: 'userId', type: ID, nullable: true },
    { name: 'observedAt', type: DATE_OR_INSTANT },
    { name: 'boxes', type: COUNT },
    { name: 'pulls', type: PULLS },
  ],
  prices: [
    { name: 'entity', type: ENTITY },
    { name: 'id', type: ID },
    { name: 'start', type: DATE },
    { name: 'usdCents', type: USD_CENTS },
  ],
};

/** Rules between fields of one record, run once every field passed. */
const RECORD_RULES: Partial<Record<SourceKind, (record: Record<string, unknown>) => string | null>> = {
  users(user) {
    // Privacy (API.md §2.6): an anonymous user must never be showcased, and carries no handle
    // that could identify them; a showcased user is reached at /v1/u/:handle, so needs one.
    if (user.anonymous === true && user.showcase === true) return 'an anonymous user must have showcase false';
    if (user.anonymous === true && user.handle !== null) return 'an anonymous user must have handle null';
    if (user.showcase === true && user.handle === null) return 'a showcase user needs a handle';
    return null;
  },
  prices(series) {
    // Checked here rather than as a nullable field rule: that rule would add `synthetic: null` to
    // every observed series, and the compile hands price records on as they were written.
    const synthetic = series.synthetic;
    return synthetic === undefined || synthetic === null || typeof synthetic === 'boolean'
      ? null
      : `field "synthetic" must be true or false or null, got ${show(synthetic)}`;
  },
  pullObservations(observation) {
    const pulls = observation.pulls as Record<string, number>;
    const total = Object.values(pulls).reduce((sum, n) => sum + n, 0);
    const boxes = observation.boxes as number;
    return total > boxes ? `pulls add up to ${total}, more than the ${boxes} boxes opened` : null;
  },
};

/**
 * A rejected line keeps its object (when it was one), so the loader can still tell which id was
 * rejected and name it when another record refers to it.
 */
export type Parsed<T> = { ok: true; record: T } | { ok: false; reason: string; value?: Record<string, unknown> };

/** Parses one line of a kind and checks everything the record holds by itself. */
export function parseRecord<T>(kind: SourceKind, text: string): Parsed<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `invalid JSON (${(err as Error).message})` };
  }
  if (!isPlainObject(value)) {
    return { ok: false, reason: `a record must be a JSON object, got ${Array.isArray(value) ? 'an array' : show(value)}` };
  }
  const reason = checkFields(value, FIELD_RULES[kind]) ?? RECORD_RULES[kind]?.(value) ?? null;
  return reason === null ? { ok: true, record: value as T } : { ok: false, reason, value };
}
