/**
 * Small builders for the JSON Schemas (draft 2020-12, as OpenAPI 3.1 uses them) of the OpenAPI
 * document. Documents keep every key (API.md §2.4: absent data is null, never a missing key), so
 * `closed()` requires every property and forbids others: a renderer that adds, drops or renames a
 * field fails the response-validation tests instead of drifting silently.
 *
 * @example
 *   closed({ id: str(), price: nullable(cents()) })
 *   // { type: 'object', additionalProperties: false, required: ['id', 'price'], properties: {...} }
 */
export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

export function closed(properties: Record<string, Schema>, description?: string): Schema {
  return {
    type: 'object',
    ...(description === undefined ? {} : { description }),
    additionalProperties: false,
    required: Object.keys(properties),
    properties,
  };
}

/** The same schema, or null. A `$ref` cannot take a `type` beside it, so it is wrapped in oneOf. */
export function nullable(schema: Schema): Schema {
  if ('$ref' in schema) return { oneOf: [schema, { type: 'null' }] };
  const type = schema.type;
  if (typeof type === 'string') {
    const values = 'enum' in schema ? { enum: [...(schema.enum as unknown[]), null] } : {};
    return { ...schema, type: [type, 'null'], ...values };
  }
  if ('const' in schema) return { oneOf: [schema, { type: 'null' }] };
  if ('enum' in schema) return { ...schema, enum: [...(schema.enum as unknown[]), null] };
  throw new Error('nullable(): unsupported schema shape');
}

export const str = (description?: string): Schema => ({ type: 'string', ...(description ? { description } : {}) });
export const int = (description?: string, minimum = 0): Schema => ({ type: 'integer', minimum, ...(description ? { description } : {}) });
export const num = (description?: string): Schema => ({ type: 'number', ...(description ? { description } : {}) });
export const bool = (description?: string): Schema => ({ type: 'boolean', ...(description ? { description } : {}) });
export const oneOfValues = (values: readonly string[], description?: string): Schema => ({
  type: 'string', enum: [...values], ...(description ? { description } : {}),
});
export const arrayOf = (items: Schema, description?: string): Schema => ({ type: 'array', items, ...(description ? { description } : {}) });

/** Integer cents (API.md §2.2): USD unless the field name carries a currency suffix. */
export const cents = (description = 'USD cents'): Schema => ({ type: 'integer', description });

/** API.md §2.3: `YYYY-MM-DDTHH:MM:SS.mmmZ`, UTC, always milliseconds. */
export const TIMESTAMP_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$';
export const timestamp = (description?: string): Schema => ({ ...ref('Timestamp'), ...(description ? { description } : {}) });
