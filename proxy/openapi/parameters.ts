/**
 * Parameter components (API.md §1, §3; docs/api.md "Path parameters" and "Query parameters"): those of
 * the route table (proxy/route-table/params.ts, where each is declared with its check) and those the
 * admin and download routes state, in the document's order; a component a table brings that is not
 * among them (a test's table) comes after.
 */
import { documentedOnly, type DocumentedParam } from '../route-table/param.js';
import {
  ArtistSlug, BulkName, Game, GameFilter, Handle, Id, ObjectKey, Page, Range, SearchQuery, SetCode, SinceSnapshot, Snapshot, limitParam,
} from '../route-table/params.js';
import type { Route } from '../route-table/route.js';
import { instantSchema, tenantSchema } from './schemas-admin.js';
import { documentedParams } from './table-paths.js';
import type { Schema } from './schema-kit.js';

const KeyId = documentedOnly('KeyId', 'id', 'path', 'A key ID (the 8 characters after `rxk_`).', { type: 'string', pattern: '^[0-9A-Za-z]{8}$' });
const Since = documentedOnly('Since', 'since', 'query', 'Rows at or after this instant: `YYYY-MM-DD` (midnight UTC) or an ISO timestamp with a zone (`2026-11-20T10:00:00Z`); a day that does not exist (2026-02-30) is 400.', instantSchema('A date or an ISO timestamp with a zone.'));
const Until = documentedOnly('Until', 'until', 'query', 'Rows before this instant, in the form of `since` (must be after `since`).', instantSchema('A date or an ISO timestamp with a zone.'));
const RangeHeader = documentedOnly('RangeHeader', 'Range', 'header', 'One range, `bytes=<first>-[<last>]` or `bytes=-<suffix length>`: 206 with those bytes; past the end: 416. Several ranges or another unit: the whole file.', { type: 'string', examples: ['bytes=1048576-'] });
const IfRange = documentedOnly('IfRange', 'If-Range', 'header', 'The ETag of the file a download started with: the range applies only while it is still that file (else 200 with the whole file).', { type: 'string' });
const Tenant = documentedOnly('Tenant', 'tenant', 'query', 'Only the keys of this tenant.', tenantSchema());

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
