/**
 * The answer of GET /openapi.json (route-table/document-table.ts): the OpenAPI document
 * (proxy/openapi/), built and compressed once, on the first request, and served like a stored
 * catalog object (built-answer.ts).
 */
import type { Context } from 'hono';
import type { ProxyEnv } from '../env.js';
import { OPENAPI_PATH } from '../route-table/document-table.js';
import { createBuiltAnswer } from './built-answer.js';

export function createDocumentAnswer(build: () => unknown): (c: Context<ProxyEnv>) => Promise<Response> {
  return createBuiltAnswer(OPENAPI_PATH, () => JSON.stringify(build()));
}
