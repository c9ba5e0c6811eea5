/**
 * The typed client of the collectibles partner API: openapi-fetch over the types openapi-typescript
 * generates from the API's OpenAPI document (src/schema.d.ts, `npm run client`), with the two things
 * every partner writes by hand otherwise: the bearer key on every request, and error answers turned
 * into one typed error.
 *
 * @example
 *   const api = createCatalogClient({ baseUrl: 'https://catalog.example.com', key: process.env.CATALOG_KEY });
 *   const { data } = await api.GET('/v1/cards/{id}', { params: { path: { id: 'OP01-001' }, query: { range: '30d' } } });
 *   data?.data.name;   // typed from the document's Card schema
 */
import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };

/** The body of every error answer (`{ error, message, requestId }`). */
export type ErrorBody = components['schemas']['Error'];
export type ErrorCode = ErrorBody['error'];

/**
 * An answer of 400 or above. `code` is the API's stable error code (for example `not_found`,
 * `rate_limited`), `requestId` what to quote when reporting a problem, `retryAfter` the seconds a
 * 429 asks to wait.
 */
export class CatalogApiError extends Error {
  override readonly name = 'CatalogApiError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'unexpected_answer',
    message: string,
    readonly requestId: string | null,
    readonly retryAfter: number | null,
  ) {
    super(`${status} ${code}: ${message}`);
  }
}

export interface CatalogClientOptions {
  /** Where the API is, without a trailing `/v1` (for example `https://catalog.example.com`). */
  baseUrl: string;
  /** The partner key (`rxk_...`); the public routes (showcase, document, health) work without one. */
  key?: string;
  /** Any other openapi-fetch option (a custom `fetch`, default headers). */
  options?: Omit<ClientOptions, 'baseUrl'>;
}

export type CatalogClient = Client<paths>;

async function errorOf(response: Response): Promise<CatalogApiError> {
  const requestId = response.headers.get('x-request-id');
  const retry = response.headers.get('retry-after');
  const retryAfter = retry === null ? null : Number(retry);
  const text = await response.clone().text();
  try {
    const body = JSON.parse(text) as Partial<ErrorBody>;
    if (typeof body.error === 'string' && typeof body.message === 'string') {
      return new CatalogApiError(response.status, body.error, body.message, body.requestId ?? requestId, retryAfter);
    }
  } catch {
    // Not JSON: a proxy in front of the API answered; fall through.
  }
  return new CatalogApiError(response.status, 'unexpected_answer', text.slice(0, 200) || response.statusText, requestId, retryAfter);
}

/** Rejects every call answered 400 or above with a CatalogApiError (a 304 is not an error). */
const errorsAsExceptions: Middleware = {
  async onResponse({ response }) {
    if (response.status >= 400) throw await errorOf(response);
    return undefined;
  },
};

export function createCatalogClient({ baseUrl, key, options }: CatalogClientOptions): CatalogClient {
  const client = createClient<paths>({ ...options, baseUrl: baseUrl.replace(/\/+$/, '') });
  if (key !== undefined) {
    client.use({
      onRequest({ request }) {
        request.headers.set('Authorization', `Bearer ${key}`);
        return request;
      },
    });
  }
  client.use(errorsAsExceptions);
  return client;
}
