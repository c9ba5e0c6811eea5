/**
 * The templates of the snapshot, bulk and mirror routes (their entries: proxy/route-table/
 * snapshot-routes.ts) and the health endpoints (proxy/ops/health-routes.ts). Their bodies are not
 * catalog reads (files, NDJSON, PEM, health words), so each is written out with customOperation.
 */
import type { OpenApiExamples } from './examples.js';
import { RATE_HEADERS, headerSet } from './headers.js';
import { PARTNER_SECURITY, customOperation, type CustomOperation } from './route-spec.js';
import { responseRef, type ErrorStatus } from './responses.js';
import { ref, type Schema } from './schema-kit.js';

export const SNAPSHOT_TAG = 'Snapshots, bulk files and mirroring';
export const HEALTH_TAG = 'Health';

/** The captured 503 of /readyz (an app over a root with no snapshot), kept with the operations' examples. */
export const NOT_READY_EXAMPLE = 'getReadyNotReady';
export const HEAD = 'Also answers HEAD (the same headers, no body).';
/** What every snapshot route can answer besides its own errors: no snapshot yet, a pruned pin, a fault. */
export const PINNED: ErrorStatus[] = [400, 401, 405, 410, 429, 500, 503];
export const pinnedErrors = (...more: ErrorStatus[]): ErrorStatus[] => [...PINNED, ...more].sort((a, b) => a - b);

/** A download of a snapshot file: 200 whole, 206 part, 304 and 416. */
export function download(op: Omit<CustomOperation, 'status' | 'headers' | 'more' | 'security'> & { filename: boolean }): CustomOperation {
  const optional = [...(op.filename ? ['Content-Disposition'] : []), ...RATE_HEADERS];
  return {
    ...op,
    security: PARTNER_SECURITY,
    parameters: [...(op.parameters ?? []), 'RangeHeader', 'IfRange'],
    status: 200,
    statusDescription: 'The whole file.',
    headers: headerSet(['X-Request-Id', 'ETag', 'Cache-Control', 'Accept-Ranges', 'X-Snapshot-Id'], optional),
    more: {
      206: {
        description: 'The bytes `Range` asked for (`If-Range`, when sent, named this file).',
        headers: headerSet(['X-Request-Id', 'ETag', 'Cache-Control', 'Accept-Ranges', 'X-Snapshot-Id', 'Content-Range'], optional),
        content: { [op.mediaType!]: { schema: { type: 'string', description: 'A part of the file.' } } },
      },
      304: responseRef('file304'),
    },
  };
}

/** A small body built per request: 200 and 304. `Vary` in `required`: the body is negotiated, so it may be gzip. */
export function small(op: Omit<CustomOperation, 'status' | 'headers' | 'more' | 'security'>, required: string[], optional: string[] = []): CustomOperation {
  return {
    ...op,
    security: PARTNER_SECURITY,
    status: 200,
    headers: headerSet(['X-Request-Id', 'ETag', 'Cache-Control', ...required], [...(required.includes('Vary') ? ['Content-Encoding'] : []), ...optional, ...RATE_HEADERS]),
    more: { 304: responseRef('file304') },
  };
}

export function healthPaths(examples: OpenApiExamples): Record<string, Schema> {
  const headers = headerSet(['X-Request-Id', 'Cache-Control']);
  const notReady = examples.operations[NOT_READY_EXAMPLE];
  const health = (o: Pick<CustomOperation, 'operationId' | 'summary' | 'description' | 'more'>) => ({
    // Any other method is 405 with Allow (proxy/ops/health-routes.ts), as on every path.
    get: customOperation(HEALTH_TAG, { ...o, security: [], status: 200, body: ref('Health'), headers, errors: [405] }, examples),
  });
  return {
    '/healthz': health({
      operationId: 'getHealth', summary: 'Liveness',
      description: `200 \`{"status":"ok"}\` whenever the process answers. No credential (one sent is ignored), not counted, not logged. ${HEAD} Other methods are 405.`,
    }),
    '/readyz': health({
      operationId: 'getReady', summary: 'Readiness',
      description: `200 \`{"status":"ready"}\` when a snapshot is published and the state file takes a write; otherwise 503 \`{"status":"not_ready"}\`, the reason only in the server log (docs/operations.md). No credential, not counted, not logged. ${HEAD} Other methods are 405.`,
      more: {
        503: {
          description: 'Not ready: no snapshot is published yet, or the state file cannot be written.',
          headers,
          content: { 'application/json': { schema: ref('Health'), ...(notReady ? { examples: { [NOT_READY_EXAMPLE]: { summary: notReady.request, value: notReady.body } } } : {}) } },
        },
      },
    }),
  };
}
