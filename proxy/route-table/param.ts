/**
 * One request parameter, declared once: how the document states it and how a request's value is
 * checked. The route table (route.ts) lists a route's parameters; registration (register.ts) checks
 * them in that order and the OpenAPI document (proxy/openapi/table-paths.ts) lists them in it.
 *
 * A parameter with a `component` name is listed under `components.parameters` and its operations
 * refer to it with `$ref`; one without is written out in each operation that takes it.
 *
 * @example
 *   const Range = queryParam({ component: 'Range', name: 'range', description: 'The history range.',
 *     schema: { type: 'string', enum: [...RANGES] }, check: (raw) => requireOneOf(raw ?? '30d', RANGES, 'range') });
 */
import type { Schema } from '../openapi/schema-kit.js';

export type ParamLocation = 'path' | 'query' | 'header';

/** What the document needs of a parameter. */
export interface DocumentedParam {
  /** Name under `components.parameters`; absent: written out where it is used. */
  component?: string;
  /** The OpenAPI parameter object. */
  doc: Schema;
}

export interface Param<T> extends DocumentedParam {
  name: string;
  in: 'path' | 'query';
  /**
   * The rest of the path, slashes included (`{key}` of `/v1/snapshot/objects/{key}`): read from the
   * raw URL and percent-decoded exactly once, since clients encode `/` in a path parameter.
   */
  rest?: boolean;
  /**
   * The checked value: 400 `invalid_parameter` naming the parameter when it is not acceptable. `raw`
   * is the path segment (decoded), or the query value (undefined when absent; given twice is refused
   * before this is called); null for a rest of the path that is not valid percent-encoding.
   */
  check(raw: string | undefined | null): T;
}

export type Params = Record<string, Param<unknown>>;

/** The checked values of a route's parameters, by the keys the route gave them. */
export type Values<P extends Params> = { [K in keyof P]: P[K] extends Param<infer T> ? T : never };

interface ParamSpec<T> {
  component?: string;
  name: string;
  description: string;
  schema: Schema;
  check: (raw: string | undefined | null) => T;
}

export function pathParam<T>(spec: ParamSpec<T> & { rest?: boolean }): Param<T> {
  return {
    component: spec.component, name: spec.name, in: 'path', rest: spec.rest, check: spec.check,
    doc: { name: spec.name, in: 'path', required: true, description: spec.description, schema: spec.schema },
  };
}

export function queryParam<T>(spec: ParamSpec<T> & { required?: boolean }): Param<T> {
  return {
    component: spec.component, name: spec.name, in: 'query', check: spec.check,
    doc: { name: spec.name, in: 'query', required: spec.required ?? false, description: spec.description, schema: spec.schema },
  };
}

/** A parameter the document states but the route does not check itself (a header the file responder reads). */
export function documentedOnly(component: string, name: string, location: ParamLocation, description: string, schema: Schema, required = location === 'path'): DocumentedParam {
  return { component, doc: { name, in: location, required, description, schema } };
}

/** How an operation lists a parameter: a `$ref` to its component, or the parameter object itself. */
export function parameterRef(param: DocumentedParam): Schema {
  return param.component === undefined ? param.doc : { $ref: `#/components/parameters/${param.component}` };
}
