/**
 * Parameter components (API.md §1, §3; docs/api.md "Path parameters" and "Query parameters"): those of
 * the route table (proxy/route-table/params.ts, where each is declared with its check) and those the
 * admin and download routes state, in the document's order; a component a table brings that is not
 * among them (a test's table) comes after.
 */
import { documentedOnly, type DocumentedParam } from '../route-table/param.js';
import {
  ArtistSlug, BulkName, Game, GameFilter, Handle, Id, KeyId, ObjectKey, Page, Range, SearchQuery, SetCode, Since, SinceSnapshot, Snapshot,
  Tenant, Until, limitParam,
} from '../route-table/params.js';
import type { Route } from '../route-table/route.js';
import { documentedParams } from './table-paths.js';
import type { Schema } from './schema-kit.js';

const RangeHeader = documentedOnly('RangeHeader', 'Range', 'header', 'One range, `bytes=<first>-[<last>]` or `bytes=-<suffix length>`: 206 with those bytes; past the end: 416. Several ranges or another unit: the whole file.', { type: 'string', examples: ['bytes=1048576-'] });
const IfRange = documentedOnly('IfRange', 'If-Range', 'header', 'The ETag of the file a download started with: the range applies only while it is still that file (else 200 with the whole file).', { type: 'string' });

export function parameterComponents(table: readonly Route[]): Record<string, Schema> {
  const ordered: DocumentedParam[] = [
    Id, Game, SetCode, ArtistSlug, Handle, KeyId, Range, GameFilter, Page, limitParam(20), limitParam(100), SearchQuery,
    Since, Until, Snapshot, SinceSnapshot, ObjectKey, BulkName, RangeHeader, IfRange, Tenant,
  ];
  const components: Record<string, Schema> = {};
  for (const p of [...ordered, ...table.flatMap((route) => documentedParams(route))]) {
    if (p.component !== undefined && !(p.component in components)) components[p.component] = p.doc;
  }
  return components;
}
