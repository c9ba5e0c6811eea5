/**
 * The snapshot, bulk and mirror routes (proxy/routes/snapshot*.ts, bulk.ts; docs/mirroring.md) and
 * the health endpoints (proxy/ops/health-routes.ts). Their bodies are not catalog reads (files,
 * NDJSON, PEM, health words), so each is written out with customOperation.
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
const HEAD = 'Also answers HEAD (the same headers, no body).';
/** What every snapshot route can answer besides its own errors: no snapshot yet, a pruned pin, a fault. */
const PINNED: ErrorStatus[] = [400, 401, 405, 410, 429, 500, 503];
const errors = (...more: ErrorStatus[]): ErrorStatus[] => [...PINNED, ...more].sort((a, b) => a - b);

/** A download of a snapshot file: 200 whole, 206 part, 304 and 416. */
function download(op: Omit<CustomOperation, 'status' | 'headers' | 'more' | 'security'> & { filename: boolean }): CustomOperation {
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
function small(op: Omit<CustomOperation, 'status' | 'headers' | 'more' | 'security'>, required: string[]): CustomOperation {
  return {
    ...op,
    security: PARTNER_SECURITY,
    status: 200,
    headers: headerSet(['X-Request-Id', 'ETag', 'Cache-Control', ...required], [...(required.includes('Vary') ? ['Content-Encoding'] : []), ...RATE_HEADERS]),
    more: { 304: responseRef('file304') },
  };
}

export function snapshotPaths(examples: OpenApiExamples): Record<string, Schema> {
  const op = (o: CustomOperation) => ({ get: customOperation(SNAPSHOT_TAG, o, examples) });
  return {
    '/v1/snapshot': op(small({
      operationId: 'getSnapshot', summary: 'The current snapshot',
      description: `Its id, creation time, previous snapshot, counts, the manifest's size, SHA-256 and whether it is signed, the fingerprint of the published public key, and the bulk files. A mirror starts here and pins the id with \`snapshot=\` for the rest of its sync (docs/mirroring.md). ${HEAD}`,
      parameters: ['Snapshot'], body: ref('SnapshotEnvelope'), statusDescription: 'An envelope of kind `snapshot`.', errors: PINNED,
    }, ['Vary', 'X-Snapshot-Id'])),
    '/v1/snapshot/manifest': op(download({
      operationId: 'getSnapshotManifest', summary: 'The manifest of the snapshot',
      description: `NDJSON: a header line (id, counts, bulk files), then one line per stored object, by key: \`{ key, size, sha256, input }\`. These are the exact bytes the signature covers; the ETag is their SHA-256. ${HEAD}`,
      parameters: ['Snapshot'], mediaType: 'application/x-ndjson', filename: true,
      body: { type: 'string', description: 'NDJSON, one JSON object per line.' }, errors: errors(416),
    })),
    '/v1/snapshot/signature': op(download({
      operationId: 'getSnapshotSignature', summary: 'The detached signature of the manifest',
      description: `Ed25519, made by the operator's signing key (\`catalog compile --sign-key\`); check it with the public key you were given (docs/mirroring.md). 404 when the snapshot is not signed. ${HEAD}`,
      parameters: ['Snapshot'], filename: false, mediaType: 'application/json', body: ref('ManifestSignature'), errors: errors(404, 416),
    })),
    '/v1/snapshot/changes': op(small({
      operationId: 'getSnapshotChanges', summary: 'What changed since a snapshot',
      description: `Every key new, changed or removed between \`since\` and the current snapshot (or \`snapshot=\`), computed from the two manifests and streamed. Both snapshots are immutable, so it is cacheable like a catalog read; the ETag names the two ids. ${HEAD}`,
      parameters: ['SinceSnapshot', 'Snapshot'], body: ref('SnapshotChangesEnvelope'), statusDescription: 'An envelope of kind `snapshotChanges`.', errors: PINNED,
    }, ['X-Snapshot-Id'])),
    '/v1/snapshot/public-key': op(small({
      operationId: 'getPublicKey', summary: 'The public key that verifies the manifests',
      description: `The Ed25519 public key (PEM) given to \`catalog serve --public-key\`. Compare \`X-Key-Fingerprint\` with the fingerprint you were given out of band and pin that key: a key fetched over the same channel as the manifest proves nothing by itself. 404 when the server publishes none. ${HEAD}`,
      mediaType: 'application/x-pem-file',
      body: { type: 'string', pattern: '^-----BEGIN PUBLIC KEY-----\\n[A-Za-z0-9+/=\\n]+-----END PUBLIC KEY-----\\n$', description: 'SubjectPublicKeyInfo, PEM.' },
      errors: [400, 401, 404, 405, 429],
    }, ['Vary', 'X-Key-Fingerprint'])),
    '/v1/snapshot/objects/{key}': op(small({
      operationId: 'getSnapshotObject', summary: 'One stored object by manifest key',
      description: `The stored gzip bytes exactly as the manifest lists them (\`Content-Type: application/gzip\`: they are not decoded on the way); the ETag is their SHA-256, so a mirror checks them against the manifest. ${HEAD}`,
      parameters: ['ObjectKey', 'Snapshot'], mediaType: 'application/gzip',
      body: { type: 'string', contentMediaType: 'application/gzip', description: 'The gzip of the enveloped JSON document.' },
      errors: errors(404),
    }, ['X-Snapshot-Id'])),
    '/v1/bulk': op(small({
      operationId: 'listBulkFiles', summary: 'The bulk files of the snapshot',
      description: `Every card, figure, set and oracle concept, and the changes against the previous snapshot, each as one gzip NDJSON file. ${HEAD}`,
      parameters: ['Snapshot'], body: ref('BulkFilesEnvelope'), statusDescription: 'An envelope of kind `bulkFiles`.', errors: PINNED,
    }, ['Vary', 'X-Snapshot-Id'])),
    '/v1/bulk/{name}': op(download({
      operationId: 'getBulkFile', summary: 'One bulk file',
      description: `gzip NDJSON, one record per line, sorted by key, with \`Content-Length\`. A broken download resumes with \`Range: bytes=<bytes you have>-\` and \`If-Range: <ETag>\`. ${HEAD}`,
      parameters: ['BulkName', 'Snapshot'], mediaType: 'application/gzip', filename: true,
      body: { type: 'string', contentMediaType: 'application/gzip', description: 'gzip NDJSON.' }, errors: errors(404, 416),
    })),
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
