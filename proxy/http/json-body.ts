/**
 * The JSON object body of a write (the key administration routes, route-table `body`): at most
 * MAX_BODY_BYTES, an object, and only the fields the route names; anything else is 400
 * `invalid_parameter` naming `body` or the field.
 */
import type { Context } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import type { ProxyEnv } from '../env.js';

const MAX_BODY_BYTES = 4096;

export async function readJsonObject(c: Context<ProxyEnv>, allowed: readonly string[], emptyIsObject = false): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new CatalogError('invalid_parameter', `body must be at most ${MAX_BODY_BYTES} bytes`, { parameter: 'body' });
  if (text.trim() === '' && emptyIsObject) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CatalogError('invalid_parameter', 'body must be a JSON object', { parameter: 'body' });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new CatalogError('invalid_parameter', 'body must be a JSON object', { parameter: 'body' });
  }
  for (const field of Object.keys(parsed)) {
    if (!allowed.includes(field)) throw new CatalogError('invalid_parameter', `unknown field ${field} (expected ${allowed.join(', ')})`, { parameter: field });
  }
  return parsed as Record<string, unknown>;
}
