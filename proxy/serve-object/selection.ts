/**
 * Field selection on the list routes (issue 20): `fields=a,b,c` keeps only those fields of each item,
 * `view=ids` sends each item as `{ "id": … }` alone; the envelope, the page block and the warnings stay. The
 * valid field names of a list are the properties of its item schema in the OpenAPI document
 * (proxy/openapi/schemas-lists.ts; a oneOf item takes the union of its variants), so the document
 * and the check cannot disagree. A field an item does not have (a figure's `number`) is left out of
 * that item, as it would be absent in the full answer.
 *
 * The selection is normalized (sorted, without repeats), so `fields=name,id` and `fields=id,name,id`
 * are one selection, with one cache entry and one ETag.
 *
 * @example
 *   const s = checkSelection('Summary', ['name', 'id'], 'full');   // { kind: 'fields', fields: ['id', 'name'] }
 *   applySelection(s, { entity: 'card', id: 'OP01-001', name: 'Luffy', number: '001' })   // { id: 'OP01-001', name: 'Luffy' }
 */
import { CatalogError } from '../../snapshots/errors.js';
import { listSchemas } from '../openapi/schemas-lists.js';
import type { Schema } from '../openapi/schema-kit.js';

export const VIEWS = ['full', 'ids'] as const;
export type View = (typeof VIEWS)[number];

/** `warning`: said in the answer's `warnings` (view=ids with fields: the fields are not used). */
export type Selection = { kind: 'fields'; fields: string[] } | { kind: 'ids'; warning?: string };

export const FIELDS_WITH_IDS = 'fields is not used with view=ids';

const FIELD_NAME = /^[A-Za-z][A-Za-z0-9]{0,63}$/;

/** `fields`: a comma-separated list of names, checked for form only (the route checks them against its items). */
export function parseFields(raw: string): string[] {
  const names = raw.split(',');
  if (names.some((n) => !FIELD_NAME.test(n))) {
    throw new CatalogError('invalid_parameter', 'fields must be field names separated by commas, such as fields=id,name,marketCents', { parameter: 'fields' });
  }
  return [...new Set(names)].sort();
}

const fieldCache = new Map<string, readonly string[]>();

/** Every property of an item schema of schemas-lists.ts with its schemas (several when the variants of a oneOf differ). */
export function itemProperties(schemaName: string): Map<string, Schema[]> {
  const schemas = listSchemas();
  const props = new Map<string, Schema[]>();
  const visit = (s: Schema | undefined) => {
    if (s === undefined) throw new Error(`no item schema ${schemaName}`);
    if (typeof s.$ref === 'string') return visit(schemas[s.$ref.split('/').pop()!]);
    for (const variant of (s.oneOf as Schema[] | undefined) ?? []) visit(variant);
    for (const [name, schema] of Object.entries((s.properties as Record<string, Schema> | undefined) ?? {})) {
      const seen = props.get(name) ?? [];
      if (!seen.some((x) => JSON.stringify(x) === JSON.stringify(schema))) seen.push(schema);
      props.set(name, seen);
    }
  };
  visit(schemas[schemaName]);
  return props;
}

/** The property names of an item schema (the union over a oneOf), sorted. */
export function itemFields(schemaName: string): readonly string[] {
  let known = fieldCache.get(schemaName);
  if (known === undefined) {
    known = [...itemProperties(schemaName).keys()].sort();
    fieldCache.set(schemaName, known);
  }
  return known;
}

/**
 * The selection of a request to a list whose items are `schemaName`, or null for the full answer.
 * 400 naming `fields` for a name the items do not have (listing the valid ones), naming `view` for
 * `view=ids` on a list whose items have no `id`.
 */
export function checkSelection(schemaName: string, fields: string[] | undefined, view: View): Selection | null {
  const valid = itemFields(schemaName);
  if (view === 'ids') {
    if (!valid.includes('id')) throw new CatalogError('invalid_parameter', `view must be full on this list: its items have no id; select fields instead (${valid.join(', ')})`, { parameter: 'view' });
    // Both are valid alone, so both together are taken (the document cannot state a rule between
    // two parameters): the ids, and a warning that the fields were not used.
    return fields === undefined ? { kind: 'ids' } : { kind: 'ids', warning: FIELDS_WITH_IDS };
  }
  if (fields === undefined) return null;
  const unknown = fields.filter((f) => !valid.includes(f));
  if (unknown.length > 0) {
    throw new CatalogError('invalid_parameter', `fields names ${unknown.join(', ')}, not ${unknown.length === 1 ? 'a field' : 'fields'} of this list's items; valid: ${valid.join(', ')}`, { parameter: 'fields' });
  }
  return { kind: 'fields', fields };
}

/** Whether `view=ids` can be asked of a list whose items are `schemaName`. */
export const hasIds = (schemaName: string): boolean => itemFields(schemaName).includes('id');

/** A short, stable name of a selection, for cache keys. */
export const selectionKey = (s: Selection): string => (s.kind === 'ids' ? `view=ids${s.warning ? '+fields' : ''}` : `fields=${s.fields.join(',')}`);

/** An envelope's data and warnings as the selection sends them. */
export function selectEnvelope<E extends { data: unknown[]; warnings: string[] }>(s: Selection, envelope: E): E {
  const data = envelope.data.map((item) => applySelection(s, item));
  return { ...envelope, data, warnings: s.kind === 'ids' && s.warning ? [...envelope.warnings, s.warning] : envelope.warnings };
}

/** One item as the selection sends it. */
export function applySelection(s: Selection, item: unknown): unknown {
  const record = item as Record<string, unknown>;
  // An object, not the bare id: every item of every answer stays an object with the item's
  // property names, so a typed client reads `item.id` whatever was asked.
  if (s.kind === 'ids') return { id: record.id };
  const out: Record<string, unknown> = {};
  for (const f of s.fields) if (f in record) out[f] = record[f];
  return out;
}
