/**
 * Checks a real response against the OpenAPI document with a JSON Schema 2020-12 validator (Ajv):
 * the status must be documented for the operation, every required header present, every header the
 * response sends documented and valid, and the body (gunzipped when gzip) valid against the schema.
 * Returns which operation and status it was, so a suite can check it covered every documented one.
 */
import { gunzipSync } from 'node:zlib';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDocument } from '../../proxy/openapi/document.js';

type Json = Record<string, any>;

/** Headers of the transport, not of the API: not listed in the document. */
const TRANSPORT_HEADERS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);
/** Statuses for a method the path does not list: the middleware's answers before routing, and 405. */
const BEFORE_ROUTING = new Set([401, 403, 405, 429]);

export interface Checked {
  /**
   * The operation answered (`getCard`); every operation of the path for a method the path does not
   * list (405 and the other answers before routing); none for a path the document does not list.
   */
  operationIds: string[];
  status: number;
}

export interface ResponseValidator {
  check(method: string, url: string, res: Response): Promise<Checked>;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

export function createResponseValidator(doc: OpenApiDocument): ResponseValidator {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  // Component schemas under one id, so their `#/components/schemas/X` references resolve.
  const toAjv = (schema: unknown) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"https://catalog.invalid/openapi.json#/$defs/'));
  ajv.addSchema({ $id: 'https://catalog.invalid/openapi.json', $defs: toAjv((doc.components as Json).schemas) });
  const compiled = new Map<string, ValidateFunction>();
  const validatorOf = (schema: unknown) => {
    const key = JSON.stringify(schema);
    let fn = compiled.get(key);
    if (!fn) compiled.set(key, (fn = ajv.compile(toAjv(schema))));
    return fn;
  };
  const deref = (node: Json): Json => {
    if (typeof node.$ref !== 'string') return node;
    const parts = (node.$ref as string).replace(/^#\//, '').split('/');
    return deref(parts.reduce((at: Json, p) => at[p.replace(/~1/g, '/').replace(/~0/g, '~')], doc as Json));
  };
  // A path parameter whose pattern allows `/` (an object key) spans segments; any other one is one segment.
  const multiSegment = (template: string, name: string) => Object.values(doc.paths[template] as Json).some((op: Json) =>
    (op.parameters ?? []).map(deref).some((p: Json) => p.in === 'path' && p.name === name && String(p.schema?.pattern ?? '').includes('/')));
  const templates = Object.keys(doc.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{([^}]+)\}/g, (_, name: string) => (multiSegment(template, name) ? '.+' : '[^/]+'))}$`),
    literal: !template.includes('{'),
  }));

  function match(path: string): string | null {
    const hits = templates.filter((t) => t.pattern.test(path));
    return (hits.find((t) => t.literal) ?? hits[0])?.template ?? null;
  }

  return {
    async check(method, url, res) {
      const where = `${method} ${url} → ${res.status}`;
      const path = new URL(url, 'http://x').pathname;
      const template = match(path);
      let operationIds: string[] = [];
      let response: Json;
      if (template === null) {
        if (res.status !== 401 && res.status !== 404) throw new Error(`${where}: path not in the document`);
        response = deref({ $ref: `#/components/responses/${res.status === 401 ? 'Unauthorized' : 'NotFound'}` });
      } else {
        const item = doc.paths[template] as Json;
        const listed = item[method === 'HEAD' ? 'get' : method.toLowerCase()];
        const op: Json = listed ?? Object.values(item)[0];
        if (!listed && !BEFORE_ROUTING.has(res.status)) throw new Error(`${where}: ${method} is not documented on ${template}`);
        operationIds = listed ? [op.operationId] : Object.values(item).map((o: Json) => o.operationId);
        const documented = op.responses[String(res.status)];
        if (!documented) throw new Error(`${where}: status ${res.status} is not documented for ${op.operationId}`);
        response = deref(documented);
      }

      const headers = Object.fromEntries(Object.entries((response.headers ?? {}) as Json).map(([n, h]) => [n.toLowerCase(), deref(h)]));
      for (const [name, def] of Object.entries(headers)) {
        if (def.required && !res.headers.has(name)) throw new Error(`${where}: required header ${name} is missing`);
      }
      for (const [name, value] of res.headers) {
        if (TRANSPORT_HEADERS.has(name)) continue;
        const def = headers[name];
        if (!def) throw new Error(`${where}: header ${name} is not documented for this response`);
        const validate = validatorOf(def.schema);
        if (!validate(value)) throw new Error(`${where}: header ${name}: ${JSON.stringify(value)} ${ajv.errorsText(validate.errors)}`);
      }

      const raw = Buffer.from(await res.arrayBuffer());
      const bodyless = method === 'HEAD' || res.status === 304;
      if (!response.content || bodyless) {
        if (raw.length > 0) throw new Error(`${where}: expected no body, got ${raw.length} bytes`);
        return { operationIds, status: res.status };
      }
      const mediaType = (res.headers.get('content-type') ?? '').split(';')[0].trim();
      const media = response.content[mediaType];
      if (!media) throw new Error(`${where}: content type ${mediaType} is not documented`);
      const validate = validatorOf(media.schema);
      if (mediaType !== 'application/json' || res.status === 206) {
        // A file or text body (gzip bytes, NDJSON, PEM) or a part of a file: its schema is a string one; a whole gzip must gunzip.
        if (mediaType === 'application/gzip' && res.status === 200) gunzipSync(raw);
        if (mediaType === 'application/x-ndjson' && res.status === 200) for (const line of raw.toString('utf8').split('\n').filter(Boolean)) JSON.parse(line);
        if (!validate(raw.toString(mediaType === 'application/gzip' ? 'latin1' : 'utf8'))) {
          throw new Error(`${where}: body does not match the schema: ${ajv.errorsText(validate.errors)}`);
        }
        return { operationIds, status: res.status };
      }
      const text = (res.headers.get('content-encoding') === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
      if (!validate(JSON.parse(text))) {
        throw new Error(`${where}: body does not match the schema: ${ajv.errorsText(validate.errors, { separator: '\n  ' })}`);
      }
      return { operationIds, status: res.status };
    },
  };
}
