/**
 * Requests generated from the OpenAPI document alone, as a partner's QA team would with a
 * property-based API tester: for one operation, fast-check arbitraries of its parameters and body
 * built from their schemas, each request either schema-valid in every part or schema-invalid in
 * exactly one (so the 400 it must get has one parameter to name). Ajv (JSON Schema 2020-12) decides
 * what is valid, not this file: a generated value is only classified, never trusted.
 *
 * Path parameters are percent-encoded as generated clients encode them (`/` too), query strings
 * are form-encoded, and values that would name another path once the URL is normalized ('', '.',
 * '..') are not generated: they are not a value of the parameter at all.
 */
import fc from 'fast-check';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { OpenApiDocument } from '../../proxy/openapi/document.js';

type Json = Record<string, any>;

export interface Credentials {
  /** Headers of each security scheme the suite can present (a scheme not here is never chosen). */
  [scheme: string]: Record<string, string>;
}

export interface GeneratedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The credential sent: a scheme name, or null for none. */
  credential: string | null;
  /** The one part that breaks its schema (a parameter or body field name), or null when all are valid. */
  invalid: string | null;
  /** The values sent, by parameter or body field name (for the rules the document states in prose). */
  values: Record<string, unknown>;
}

export interface Operation {
  path: string;
  method: string;
  op: Json;
}

/** Every operation of the document. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method: method.toUpperCase(), op })));
}

const printable = (max: number) => fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((n) => String.fromCharCode(n)), maxLength: max });
/** Text of any Unicode (whole code points: a lone surrogate cannot be sent in a URL). */
const text = (min: number, max: number) => fc.string({ unit: 'grapheme', minLength: min, maxLength: max });
const NOT_A_PATH_VALUE = new Set(['', '.', '..']);

export function createRequestGenerator(doc: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
  const defs = JSON.parse(JSON.stringify((doc.components as Json).schemas).replaceAll('"#/components/schemas/', '"https://catalog.invalid/g#/$defs/'));
  ajv.addSchema({ $id: 'https://catalog.invalid/g', $defs: defs });
  const compiled = new Map<string, ValidateFunction>();
  const resolve = (schema: Json): Json => {
    if (typeof schema.$ref !== 'string') return schema;
    return resolve((doc.components as Json).schemas[schema.$ref.split('/').pop()!]);
  };
  const validate = (schema: Json, value: unknown): boolean => {
    const key = JSON.stringify(schema);
    let fn = compiled.get(key);
    if (!fn) compiled.set(key, (fn = ajv.compile(JSON.parse(key.replaceAll('"#/components/schemas/', '"https://catalog.invalid/g#/$defs/')))));
    return fn(value) as boolean;
  };
  const parameter = (ref: Json): Json => (typeof ref.$ref === 'string' ? (doc.components as Json).parameters[ref.$ref.split('/').pop()!] : ref);

  /** Whether a value as sent in a URL or header (a string) is valid for a parameter schema. */
  function validAsSent(schema: Json, raw: string): boolean {
    if (schema.type === 'integer') {
      // What a client sends for an integer: its decimal digits, a sign only when negative.
      if (!/^-?(0|[1-9][0-9]*)$/.test(raw)) return false;
      return validate(schema, Number(raw));
    }
    return validate(schema, raw);
  }

  /** Candidate strings for a schema: mostly the right shape, some not; `known` values (real ids) among them. */
  function candidates(schema: Json, known: string[], location: string): fc.Arbitrary<string> {
    const s = resolve(schema);
    const arbs: fc.Arbitrary<string>[] = [];
    if (known.length > 0) arbs.push(fc.constantFrom(...known), fc.constantFrom(...known));
    if (s.enum) {
      arbs.push(fc.constantFrom(...s.enum.map(String)), fc.constantFrom(...s.enum.map((v: string) => v.toUpperCase()), 'none', ''));
    } else if (s.type === 'integer') {
      const min = BigInt(s.minimum ?? -1000);
      const max = s.maximum === undefined ? 10n ** 30n : BigInt(s.maximum);
      arbs.push(
        fc.bigInt({ min, max: min + 50n }).map(String),
        fc.bigInt({ min, max }).map(String),
        fc.constantFrom('0', '-1', '1.5', '1e3', 'abc', '', ' 1', String(max + 1n), String(max * 10n + 7n)),
      );
    } else if (s.type === 'string' && String(s.pattern ?? '').startsWith('^')) {
      arbs.push(fc.stringMatching(new RegExp(s.pattern)), fc.stringMatching(new RegExp(s.pattern)), text(0, 24), printable(140));
    } else if (location === 'header') {
      arbs.push(printable(40), fc.constantFrom('bytes=0-9', 'bytes=10-', 'bytes=-5', 'bytes=0-1,4-5', 'items=0-1', '"0000"'));
    } else {
      // Free text (search q): any Unicode, at the edges of the length limits too; no ':' after the first
      // word, so no text depends on how a colon that is not a known prefix is read.
      const words = text(1, 30).filter((t) => !t.includes(':'));
      arbs.push(words, fc.tuple(fc.constantFrom('mtg:', 'pokemon:', 'figures:'), words).map(([p, w]) => p + w),
        fc.constantFrom('', ' ', '\t', 'x'.repeat(200), 'y'.repeat(201), `${'é'.repeat(200)}`));
    }
    return fc.oneof(...arbs).filter((v) => location !== 'path' || !NOT_A_PATH_VALUE.has(v));
  }

  /**
   * Values of one schema: only valid ones or only invalid ones, as Ajv judges them. Made once per
   * schema, values and place and re-used (an arbitrary is immutable): the requests are generated in
   * a chain, and fast-check's stringMatching, built afresh for every request, was about 90% of this
   * suite's CPU.
   */
  const made = new Map<string, fc.Arbitrary<string>>();
  function values(schema: Json, known: string[], location: string, valid: boolean): fc.Arbitrary<string> {
    const key = JSON.stringify([schema, known, location, valid]);
    let arb = made.get(key);
    if (arb === undefined) {
      const check = (v: string) => location === 'body' ? validate(schema, v) : validAsSent(schema, v);
      made.set(key, (arb = candidates(schema, valid ? known.filter(check) : [], location).filter((v) => check(v) === valid)));
    }
    return arb;
  }

  /** Whether any value breaks the schema (a free header string cannot). */
  const canBreak = (schema: Json) => {
    const s = resolve(schema);
    return Boolean(s.enum || s.pattern || s.type === 'integer' || s.minLength || s.maxLength || s.oneOf || s.type === 'object');
  };

  /** A value of a body property: valid, or (when `valid` is false) a string or other JSON it refuses. */
  function property(schema: Json, known: string[], valid: boolean): fc.Arbitrary<unknown> {
    const p = resolve(schema);
    const stringSchema = p.oneOf ? resolve(p.oneOf[0]) : p;
    if (valid) return fc.oneof(values(stringSchema, known, 'body', true), ...(p.oneOf ? [fc.constant(null)] : []));
    return fc.oneof(values(stringSchema, [], 'body', false), fc.constantFrom(42, true, [], {}, ...(p.oneOf ? [] : [null])));
  }

  /** A JSON object body: every property valid or absent, or exactly one thing wrong (named by `invalid`). */
  function body(schema: Json, known: Record<string, string[]>, valid: boolean): fc.Arbitrary<{ value: Json; invalid: string | null }> {
    const s = resolve(schema);
    const props = Object.entries((s.properties ?? {}) as Record<string, Json>);
    const required = new Set<string>(s.required ?? []);
    const validObject = (except: string | null) => fc.tuple(...props.map(([name, prop]) => {
      if (name === except) return fc.constant(undefined);
      const v = property(prop, known[name] ?? [], true);
      return required.has(name) ? v : fc.option(v, { nil: undefined, freq: 3 });
    })).map((vs) => Object.fromEntries(props.flatMap(([name], i) => (vs[i] === undefined ? [] : [[name, vs[i]]]))));
    if (valid) return validObject(null).map((value) => ({ value, invalid: null }));
    const wrongs: fc.Arbitrary<{ value: Json; invalid: string | null }>[] = props.map(([name, prop]) =>
      fc.tuple(validObject(name), property(prop, [], false)).map(([value, bad]) => ({ value: { ...value, [name]: bad }, invalid: name })));
    for (const name of required) wrongs.push(validObject(name).map((value) => ({ value, invalid: name })));
    if (s.additionalProperties === false) {
      wrongs.push(fc.tuple(validObject(null), fc.constantFrom('extra', 'keyId', 'tenantName')).map(([value, extra]) => ({ value: { ...value, [extra]: 'x' }, invalid: extra })));
    }
    return fc.oneof(...wrongs);
  }

  /**
   * Requests for one operation. `known` gives real values by parameter name (or by
   * `operationId.name`), so that valid requests also reach real documents, not only 404s.
   */
  function requests(operation: Operation, credentials: Credentials, known: Record<string, string[]>): fc.Arbitrary<GeneratedRequest> {
    const { path, method, op } = operation;
    const params = ((op.parameters ?? []) as Json[]).map(parameter);
    const knownOf = (name: string) => known[`${op.operationId}.${name}`] ?? known[name] ?? [];
    const content = op.requestBody?.content?.['application/json'];
    // What may be the one invalid part: a parameter whose schema can be broken, or the body.
    const breakable = [...params.filter((p) => canBreak(p.schema)).map((p) => p.name), ...(content ? ['(body)'] : [])];
    const schemes = (op.security as Json[]).flatMap((req) => Object.keys(req)).filter((name) => credentials[name]);
    const credential = fc.oneof(
      { arbitrary: fc.constant(null), weight: 1 },
      { arbitrary: schemes.length > 0 ? fc.constantFrom(...schemes) : fc.constant(null), weight: 6 },
    );
    const broken = fc.oneof(
      { arbitrary: fc.constant(null), weight: 2 },
      { arbitrary: breakable.length > 0 ? fc.constantFrom(...breakable) : fc.constant(null), weight: 1 },
    );
    const methods = method === 'GET' ? fc.constantFrom('GET', 'GET', 'GET', 'HEAD') : fc.constant(method);

    return broken.chain((wrong) => {
      const paramArbs = params.map((p) => {
        if (p.name === wrong) return values(p.schema, [], p.in, false).map((v): string | undefined => v);
        const v = values(p.schema, knownOf(p.name), p.in, true);
        return p.required ? v.map((x): string | undefined => x) : fc.option(v, { nil: undefined, freq: 2 });
      });
      const bodyArb = content
        ? (op.requestBody.required || wrong === '(body)' ? fc.constant(true) : fc.boolean()).chain((send) =>
          (send ? body(content.schema, known, wrong !== '(body)') : fc.constant(null)))
        : fc.constant(null);
      return fc.tuple(fc.tuple(...paramArbs), credential, bodyArb, methods).map(([vals, scheme, generatedBody, sentMethod]): GeneratedRequest => {
        let url = path;
        const query = new URLSearchParams();
        const headers: Record<string, string> = {};
        const sent: Record<string, unknown> = {};
        params.forEach((p, i) => {
          const v = vals[i];
          if (v === undefined) return;
          sent[p.name] = v;
          if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(v));
          else if (p.in === 'query') query.append(p.name, v);
          else headers[p.name] = v;
        });
        const qs = query.toString();
        if (qs) url += `?${qs}`;
        if (scheme !== null) Object.assign(headers, credentials[scheme]);
        const request: GeneratedRequest = { method: sentMethod, url, headers, credential: scheme, values: sent, invalid: wrong === '(body)' ? null : wrong };
        if (generatedBody !== null) {
          request.body = JSON.stringify(generatedBody.value);
          headers['Content-Type'] = 'application/json';
          Object.assign(sent, generatedBody.value);
          request.invalid = generatedBody.invalid ?? request.invalid;
        }
        return request;
      });
    });
  }

  return { requests };
}
