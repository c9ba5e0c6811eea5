/**
 * The route table of the /v1 API: the catalog reads, then the snapshot and bulk routes, then key
 * administration and the audit route, then webhooks, in the order the OpenAPI document lists them. createApp takes
 * it as a dependency (default: this one), so a test can serve a table of its own and see its routes
 * checked and documented. (/openapi.json, outside /v1, is document-table.ts.)
 */
import { adminTable } from './admin-table.js';
import { catalogTable } from './catalog-table.js';
import type { Route } from './route.js';
import { snapshotTable } from './snapshot-table.js';
import { webhookTable } from './webhook-table.js';

export function partnerRoutes(): Route[] {
  return [...catalogTable(), ...snapshotTable(), ...adminTable(), ...webhookTable()];
}
