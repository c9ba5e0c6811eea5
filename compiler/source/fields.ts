/**
 * A tiny declarative field checker, so the per-kind rules (validate.ts) read as a table.
 * A field type answers with the reason a value is wrong (`must be ..., got ...`) or null.
 *
 * @example
 *   checkFields({ id: 'a b' }, [{ name: 'id', type: ID }]) // 'field "id" must be an id matching ..., got "a b"'
 */
import { ID_PATTERN, isValidId, isValidSlug, SLUG_PATTERN } from '../../snapshots/ids.js';
import { isDate, isInstant } from '../../snapshots/dates.js';

export interface FieldType {
  /** What a right value is, as in `field "x" must be <expect>`. */
  expect: string;
  /**
   * null when the value is right; otherwise '' or, for composite values, which part is wrong
   * (`items[3].id is missing`).
   */
  check(value: unknown): string | null;
}

export interface FieldRule {
  name: string;
  type: FieldType;
  /** Null is allowed; an omitted field is then read as null (and set to null on the record). */
  nullable?: boolean;
}

/** A value as quoted in a reason: short JSON, with its JS type when that is the surprise. */
export function show(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  const shown = json.length > 60 ? `${json.slice(0, 57)}...` : json;
  if (value === null || Array.isArray(value)) return shown;
  return typeof value === 'string' || typeof value === 'number' ? shown : `${shown} (${typeof value})`;
}

export function simple(expect: string, test: (value: unknown) => boolean): FieldType {
  return { expect, check: (value) => (test(value) ? null : '') };
}

const isString = (v: unknown): v is string => typeof v === 'string';

export const TEXT = simple('a non-empty string', (v) => isString(v) && v.trim() !== '');
export const ANY_TEXT = simple('a string', isString);
export const ID = simple(`an id matching ${ID_PATTERN.source} (not "." or "..")`, (v) => isString(v) && isValidId(v));
export const SLUG = simple(`a lowercase slug matching ${SLUG_PATTERN.source}`, (v) => isString(v) && isValidSlug(v));
export const DATE = simple('a date YYYY-MM-DD', (v) => isString(v) && isDate(v));
export const DATE_OR_INSTANT = simple(
  'a date YYYY-MM-DD or an instant YYYY-MM-DDTHH:MM:SS.mmmZ',
  (v) => isString(v) && (isDate(v) || isInstant(v)),
);
export const COUNT = simple('a non-negative integer', (v) => Number.isSafeInteger(v) && (v as number) >= 0);
export const POSITIVE_COUNT = simple('a positive integer', (v) => Number.isSafeInteger(v) && (v as number) > 0);
export const POSITIVE_NUMBER = simple('a positive number', (v) => typeof v === 'number' && Number.isFinite(v) && v > 0);
export const BOOLEAN = simple('true or false', (v) => typeof v === 'boolean');
/** Images are shown to partners' users: only absolute http(s) URLs, never javascript: or data:. */
export const HTTP_URL = simple('an absolute http(s) URL', (v) => isString(v) && /^https?:\/\/[^\s/]+\/?\S*$/i.test(v));

export function oneOf(values: readonly string[]): FieldType {
  return simple(`one of ${values.join(', ')}`, (v) => isString(v) && values.includes(v));
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first problem of a record's fields, or null. Omitted nullable fields become null on the record. */
export function checkFields(record: Record<string, unknown>, rules: readonly FieldRule[]): string | null {
  for (const rule of rules) {
    const value = record[rule.name];
    if (value === undefined) {
      if (rule.nullable) {
        record[rule.name] = null;
        continue;
      }
      return `missing required field "${rule.name}"`;
    }
    if (value === null && rule.nullable) continue;
    const detail = rule.type.check(value);
    if (detail === null) continue;
    const expect = `${rule.type.expect}${rule.nullable ? ' or null' : ''}`;
    return detail === ''
      ? `field "${rule.name}" must be ${expect}, got ${show(value)}`
      : `field "${rule.name}" must be ${expect}: ${detail}`;
  }
  return null;
}
