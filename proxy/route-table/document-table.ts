/**
 * The routes outside /v1 that serve the API's own description, before the request path (createApp
 * mounts this table first): no credential, no rate limit, no audit row.
 * - `GET /openapi.json`: the OpenAPI document, answered by routes/openapi.ts.
 * - `GET /docs` and its script: the reference page rendered from that document in the browser
 *   (routes/docs-page.ts).
 */
import type { Context } from 'hono';
import type { ProxyEnv } from '../env.js';
import { headerSet } from '../openapi/headers.js';
import type { CustomOperation } from '../openapi/route-spec.js';
import { responseRef } from '../openapi/responses.js';
import { DOCS_PATH, DOCS_SCRIPT_PATH, createDocsAnswers } from '../routes/docs-page.js';
import { route, type Route } from './route.js';

export const OPENAPI_PATH = '/openapi.json';

const TAG = 'Document';
const CACHED = ['X-Request-Id', 'ETag', 'Cache-Control', 'Vary'];

type PageDoc = Pick<CustomOperation, 'operationId' | 'summary' | 'description' | 'statusDescription' | 'mediaType' | 'headers'>;

/** A keyless text answer the server builds once (routes/openapi.ts createBuiltAnswer): ETag, 304, 405. */
function builtRoute(path: string, answer: (c: Context<ProxyEnv>) => Promise<Response>, doc: PageDoc): Route {
  return route({
    path, params: {},
    answer: { handler: (c) => answer(c) },
    doc: { tag: TAG, operation: () => ({ ...doc, security: [], status: 200, body: { type: 'string' }, more: { 304: responseRef(304) }, errors: [405, 500] }) },
  });
}

export function documentTable(): Route[] {
  const docs = createDocsAnswers();
  return [
    route({
      path: OPENAPI_PATH, params: {},
      answer: { handler: (c, _request, deps) => deps.document!(c) },
      doc: { tag: TAG, operation: () => ({
        operationId: 'getOpenApi', summary: 'This OpenAPI document',
        description: 'No credential, not rate-limited, cacheable like a catalog read (ETag, 304). The same document is docs/openapi.json in the repository.',
        security: [], status: 200, statusDescription: 'The OpenAPI 3.1 document.',
        headers: headerSet(CACHED, ['Content-Encoding']),
        body: { type: 'object', required: ['openapi', 'info', 'paths'], properties: { openapi: { const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } } },
        more: { 304: responseRef(304) }, errors: [405, 500],
      }) },
    }),
    builtRoute(DOCS_PATH, docs.page, {
      operationId: 'getDocs', summary: 'This reference, as a web page',
      description: 'Open it in a browser: every route with its parameters, responses, errors and a curl example, rendered by Redoc from this document. No credential; everything it loads comes from this server (a strict Content-Security-Policy).',
      statusDescription: 'The HTML page; its script renders this document.', mediaType: 'text/html',
      headers: headerSet([...CACHED, 'Content-Security-Policy', 'X-Content-Type-Options'], ['Content-Encoding']),
    }),
    builtRoute(DOCS_SCRIPT_PATH, docs.script, {
      operationId: 'getDocsScript', summary: 'The script of the reference page',
      description: 'Redoc\'s standalone bundle (npm package `redoc`), served by this server so the page needs no other origin.',
      statusDescription: 'JavaScript.', mediaType: 'text/javascript',
      headers: headerSet([...CACHED, 'X-Content-Type-Options'], ['Content-Encoding']),
    }),
  ];
}
