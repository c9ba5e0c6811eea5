/**
 * The path items of a route table (proxy/route-table/): a catalog read gets the read template of
 * route-spec.ts, any other route its own operation; both list the route's parameters as the table
 * declares them, path parameters first, then `page` and `limit` for a list.
 */
import type { DocumentedParam } from '../route-table/param.js';
import { parameterRef } from '../route-table/param.js';
import { Fields, Page, Snapshot, View, limitParam } from '../route-table/params.js';
import { hasIds, itemFields, itemProperties } from '../serve-object/selection.js';
import type { ReadDoc, Route } from '../route-table/route.js';
import type { OpenApiExamples } from './examples.js';
import { customOperation, readOperation, type ReadRoute } from './route-spec.js';
import type { Schema } from './schema-kit.js';

/** Every parameter of a route as the document states it, `page` and `limit` last. */
export function documentedParams(route: Route, without: string | null = null): DocumentedParam[] {
  const own = Object.entries(route.params).filter(([key]) => key !== without).map(([, p]) => p);
  return route.paging === undefined ? own : [...own, Page, limitParam(route.paging)];
}

const envelopeOf = (kind: string) => `${kind[0].toUpperCase()}${kind.slice(1)}Envelope`;

function readRoute(route: Route, path: string, doc: ReadDoc, params: DocumentedParam[]): ReadRoute {
  const asOf = Object.values(route.params).includes(Snapshot);
  const item = String(doc.data.$ref).split('/').pop()!;
  const select = route.params.fields === Fields ? { item, fields: itemFields(item), ids: hasIds(item), properties: itemProperties(item) } : undefined;
  const parameters = params.map((p) => (select === undefined ? parameterRef(p) : selectionParam(p, select)));
  return { path, ...doc, parameters, list: route.paging !== undefined, asOf, select, envelope: envelopeOf(doc.kind) };
}

/**
 * `fields` and `view` written out per list, with the names its items have and `ids` only where they
 * have an id, so a request the document allows is one the route takes.
 */
function selectionParam(p: DocumentedParam, select: { fields: readonly string[]; ids: boolean }): Schema {
  if (p === Fields) {
    const names = select.fields.join('|');
    return { ...Fields.doc, description: `${Fields.doc.description} This list's: ${select.fields.map((f) => `\`${f}\``).join(', ')}.`, schema: { type: 'string', pattern: `^(${names})(,(${names}))*$`, examples: [select.fields.slice(0, 2).join(',')] } };
  }
  if (p === View) return { ...View.doc, schema: { type: 'string', enum: select.ids ? ['full', 'ids'] : ['full'], default: 'full' } };
  return parameterRef(p);
}

/** The catalog reads of a table, one per documented path (the discover route is one per feed). */
export function readRoutes(table: readonly Route[]): ReadRoute[] {
  return table.flatMap((route) => {
    if ('each' in route.doc) {
      const { each, read } = route.doc;
      const parameters = documentedParams(route, each);
      const name = route.params[each].name;
      return Object.entries(read).map(([value, doc]) => readRoute(route, route.path.replace(`{${name}}`, value), doc, parameters));
    }
    if ('read' in route.doc) return [readRoute(route, route.path, route.doc.read, documentedParams(route))];
    return [];
  });
}

export function tablePaths(table: readonly Route[], examples: OpenApiExamples): Record<string, Record<string, Schema>> {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const route of table) {
    if ('operation' in route.doc) {
      // Entries of one path (the admin writes) share its path item, in the table's order.
      paths[route.path] = { ...paths[route.path], [route.method ?? 'get']: customOperation(route.doc.tag, route.doc.operation(documentedParams(route).map(parameterRef)), examples) };
      continue;
    }
    for (const read of readRoutes([route])) paths[read.path] = { get: readOperation(read, examples) };
  }
  return paths;
}
