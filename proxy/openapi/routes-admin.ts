/** The envelope schema of the audit route (route-table/admin-table.ts), which needs the common envelope. */
import { envelopeSchema } from './schemas-common.js';
import { ref, type Schema } from './schema-kit.js';

export function adminSchemasWithEnvelope(): Record<string, Schema> {
  return { AuditEnvelope: envelopeSchema('audit', ref('AuditRow'), true, 'Audit rows of a key, newest first.') };
}
