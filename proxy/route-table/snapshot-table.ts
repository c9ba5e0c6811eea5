/**
 * The snapshot, bulk and mirror routes (docs/mirroring.md), one entry each (route.ts). Their bodies
 * are not catalog reads (files, NDJSON, PEM), so each is documented with a template of
 * proxy/openapi/routes-snapshot.ts and answered by its file in proxy/routes/.
 */
import { answerBulkFile, answerBulkList } from '../routes/bulk.js';
import { answerSnapshot } from '../routes/snapshot.js';
import { answerSnapshotFeed, answerSnapshotList } from '../routes/snapshot-list.js';
import { answerChanges } from '../routes/snapshot-changes.js';
import { answerManifest, answerSignature } from '../routes/snapshot-manifest.js';
import { answerObject } from '../routes/snapshot-objects.js';
import { answerPack, answerSnapshotFile } from '../routes/snapshot-packs.js';
import { answerPublicKey } from '../routes/snapshot-public-key.js';
import { HEAD, PINNED, SNAPSHOT_TAG, download, pinnedErrors, small } from '../openapi/routes-snapshot.js';
import { ref } from '../openapi/schema-kit.js';
import { BulkName, ObjectKey, PackHash, SinceSnapshot, Snapshot, SnapshotFileName } from './params.js';
import { route, type Route } from './route.js';

export function snapshotTable(): Route[] {
  return [
    route({
      path: '/v1/snapshot', params: { snapshot: Snapshot },
      answer: { handler: (c, { values }, deps) => answerSnapshot(c, deps.files, values.snapshot, deps.publicKey?.fingerprint ?? null) },
      doc: { tag: SNAPSHOT_TAG, operation: (parameters) => small({
        operationId: 'getSnapshot', summary: 'The current snapshot',
        description: `Its id, creation time, previous snapshot, counts, the manifest's size, SHA-256 and whether it is signed, the fingerprint of the published public key, and the bulk files. A mirror starts here and pins the id with \`snapshot=\` for the rest of its sync (docs/mirroring.md). ${HEAD}`,
        parameters, body: ref('SnapshotEnvelope'), statusDescription: 'An envelope of kind `snapshot`.', errors: PINNED,
      }, ['Vary', 'X-Snapshot-Id']) },
    }),
    route({
      path: '/v1/snapshots', params: {}, paging: 20,
      answer: { handler: (c, { page }, deps) => answerSnapshotList(c, deps.snapshots, page!) },
      doc: { tag: SNAPSHOT_TAG, operation: (parameters) => small({
        operationId: 'listSnapshots', summary: 'The kept snapshots',
        description: `Every snapshot the server still keeps, newest first, a page at a time: id, creation time, previous snapshot, entity counts and object changes against the previous snapshot, and the URL of its metadata. Any catalog route reads one of them as of its time with \`snapshot=<id>\` until it is pruned (then 410); which ones are kept is the operator's retention (\`catalog compile --keep N --keep-daily D\`: the newest N plus one a day for D days). ${HEAD}`,
        parameters, body: ref('SnapshotsEnvelope'), statusDescription: 'An envelope of kind `snapshots` with a page block.', errors: [400, 401, 405, 429, 500, 503],
      }, ['Vary', 'X-Snapshot-Id'], ['Link']) },
    }),
    route({
      path: '/v1/snapshot/feed', params: {},
      answer: { handler: (c, _request, deps) => answerSnapshotFeed(c, deps.snapshots) },
      doc: { tag: SNAPSHOT_TAG, operation: () => small({
        operationId: 'getSnapshotFeed', summary: 'An Atom feed of the kept snapshots',
        description: `Atom (RFC 4287), one entry per kept snapshot, newest first: its id, creation time, entity and change counts (in \`summary\` as text, in \`content\` as the JSON of \`GET /v1/snapshots\`), a link to \`/v1/snapshot?snapshot=<id>\` and one to \`/v1/snapshot/changes\` against the snapshot it was compiled against (or the next older kept one). Poll it with \`If-None-Match\`: it is 304 until a publish or a prune changes it. Links are relative to the feed's URL. ${HEAD}`,
        mediaType: 'application/atom+xml',
        body: { type: 'string', contentMediaType: 'application/atom+xml', description: 'An Atom feed document.' },
        errors: [400, 401, 405, 429, 500, 503],
      }, ['Vary', 'X-Snapshot-Id']) },
    }),
    route({
      path: '/v1/snapshot/manifest', params: { snapshot: Snapshot },
      answer: { handler: (c, { values }, deps) => answerManifest(c, deps.files, values.snapshot) },
      doc: { tag: SNAPSHOT_TAG, operation: (parameters) => download({
        operationId: 'getSnapshotManifest', summary: 'The manifest of the snapshot',
        description: `NDJSON. A packed snapshot (\`version\` 2) has one line: the header (id, counts, bulk files, and every pack and file of the snapshot with its size and SHA-256; the object index it lists holds each object's SHA-256). A snapshot compiled before packs (\`version\` 1) has the header, then one line per stored object, by key: \`{ key, size, sha256, input }\`. These are the exact bytes the signature covers; the ETag is their SHA-256. ${HEAD}`,
        parameters, mediaType: 'application/x-ndjson', filename: true,
        body: { type: 'string', description: 'NDJSON, one JSON object per line.' }, errors: pinnedErrors(416),
      }) },
    }),
    route({
      path: '/v1/snapshot/signature', params: { snapshot: Snapshot },
      answer: { handler: (c, { values }, deps) => answerSignature(c, deps.files, values.snapshot) },
      doc: { tag: SNAPSHOT_TAG, operation: (parameters) => download({
        operationId: 'getSnapshotSignature', summary: 'The detached signature of the manifest',
        description: `Ed25519, made by the operator's signing key (\`catalog compile --sign-key\`); check it with the public key you were given (docs/mirroring.md). 404 when the snapshot is not signed. ${HEAD}`,
        parameters, filename: false, mediaType: 'application/json', body: ref('ManifestSignature'), errors: pinnedErrors(404, 416),
      }) },
    }),
    route({
      path: '/v1/snapshot/changes', params: { since: SinceSnapshot, snapshot: Snapshot },
      answer: { handler: (c, { values }, deps) => answerChanges(c, deps.files, values.since, values.snapshot) },
      doc: { tag: SNAPSHOT_TAG, operation: (parameters) => small({
        operationId: 'getSnapshotChanges', summary: 'What changed since a snapshot',
        description: `Every key new, changed or removed between \`since\` and the current snapshot (or \`snapshot=\`), computed from the two manifests and streamed (gzipped as it streams when Accept-Encoding allows it). Both snapshots are immutable, so it is cacheable like a catalog read; the ETag names the two ids and the coding. ${HEAD}`,
        parameters, body: ref('SnapshotChangesEnvelope'), statusDescription: 'An envelope of kind `snapshotChanges`.', errors: PINNED,
      }, ['Vary', 'X-Snapshot-Id']) },
    }),
    route({
      path: '/v1/snapshot/public-key', params: {},
      answer: { handler: (c, _request, deps) => answerPublicKey(c, deps.publicKey) },
      doc: { tag: SNAPSHOT_TAG, operation: () => small({
        operationId: 'getPublicKey', summary: 'The public key that verifies the manifests',
        description: `The Ed25519 public key (PEM) given to \`catalog serve --public-key\`. Compare \`X-Key-Fingerprint\` with the fingerprint you were given out of band and pin that key: a key fetched over the same channel as the manifest proves nothing by itself. 404 when the server publishes none. ${HEAD}`,
        mediaType: 'application/x-pem-file',
        body: { type: 'string', pattern: '^-----BEGIN PUBLIC KEY-----\\n[A-Za-z0-9+/=\\n]+-----END PUBLIC KEY-----\\n$', description: 'SubjectPublicKeyInfo, PEM.' },
        errors: [400, 401, 404, 405, 429],
      }, ['Vary', 'X-Key-Fingerprint']) },
    }),
    route({
      path: '/v1/snapshot/objects/{key}', params: { key: ObjectKey, snapshot: Snapshot },
      answer: { handler: (c, { values }, deps) => answerObject(c, deps.serve, deps.files, values.key, values.snapshot) },
      doc: { tag: SNAPSHOT_TAG, operation: (parameters) => small({
        operationId: 'getSnapshotObject', summary: 'One stored object by manifest key',
        description: `The stored gzip bytes exactly as the manifest lists them (\`Content-Type: application/gzip\`: they are not decoded on the way); the ETag is their SHA-256, so a mirror checks them against the manifest. ${HEAD}`,
        parameters, mediaType: 'application/gzip',
        body: { type: 'string', contentMediaType: 'application/gzip', description: 'The gzip of the enveloped JSON document.' },
        errors: pinnedErrors(404),
      }, ['X-Snapshot-Id']) },
    }),
    route({
      path: '/v1/snapshot/packs/{sha256}', params: { sha256: PackHash, snapshot: Snapshot },
      answer: { handler: (c, { values }, deps) => answerPack(c, deps.files, values.sha256, values.snapshot) },
      doc: { tag: SNAPSHOT_TAG, operation: (parameters) => download({
        operationId: 'getSnapshotPack', summary: 'One pack file of a packed snapshot',
        description: `A packed snapshot (manifest \`version\` 2) stores its objects in shared, immutable pack files named by their SHA-256; the manifest lists them in \`packs\` with their sizes, and the object index (\`GET /v1/snapshot/files/objects.sqlite\`) says where each object lies. Only a pack the pinned snapshot's manifest lists is served (else 404, and 404 for a snapshot that is not packed). The ETag is the pack's SHA-256; a broken download resumes with \`Range: bytes=<bytes you have>-\` and \`If-Range: <ETag>\`. A mirror fetches only the packs it does not hold yet (docs/mirroring.md). ${HEAD}`,
        parameters, mediaType: 'application/octet-stream', filename: false,
        body: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The pack: stored objects back to back, no framing.' }, errors: pinnedErrors(404, 416),
      }) },
    }),
    route({
      path: '/v1/snapshot/files/{name}', params: { name: SnapshotFileName, snapshot: Snapshot },
      answer: { handler: (c, { values }, deps) => answerSnapshotFile(c, deps.files, values.name, values.snapshot) },
      doc: { tag: SNAPSHOT_TAG, operation: (parameters) => download({
        operationId: 'getSnapshotFile', summary: 'One file of a packed snapshot',
        description: `A file the pinned packed snapshot's manifest lists in \`files\`: \`objects.sqlite\` (the object index: key → pack, offset, length, SHA-256), \`search.sqlite\` (the search index), \`changes.ndjson\` (the keys changed since the previous snapshot). Any other name, or a snapshot that is not packed, is 404. The ETag is the SHA-256 the manifest lists; \`Range\`/\`If-Range\` as for the bulk files. ${HEAD}`,
        parameters, mediaType: 'application/octet-stream', filename: true,
        body: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The file, byte for byte (SQLite databases, NDJSON).' }, errors: pinnedErrors(404, 416),
      }) },
    }),
    route({
      path: '/v1/bulk', params: { snapshot: Snapshot },
      answer: { handler: (c, { values }, deps) => answerBulkList(c, deps.files, values.snapshot) },
      doc: { tag: SNAPSHOT_TAG, operation: (parameters) => small({
        operationId: 'listBulkFiles', summary: 'The bulk files of the snapshot',
        description: `Every card, figure, set and oracle concept, and the changes against the previous snapshot, each as one gzip NDJSON file. ${HEAD}`,
        parameters, body: ref('BulkFilesEnvelope'), statusDescription: 'An envelope of kind `bulkFiles`.', errors: PINNED,
      }, ['Vary', 'X-Snapshot-Id']) },
    }),
    route({
      path: '/v1/bulk/{name}', params: { name: BulkName, snapshot: Snapshot },
      answer: { handler: (c, { values }, deps) => answerBulkFile(c, deps.files, values.name, values.snapshot) },
      doc: { tag: SNAPSHOT_TAG, operation: (parameters) => download({
        operationId: 'getBulkFile', summary: 'One bulk file',
        description: `gzip NDJSON, one record per line, sorted by key, with \`Content-Length\`. A broken download resumes with \`Range: bytes=<bytes you have>-\` and \`If-Range: <ETag>\`. ${HEAD}`,
        parameters, mediaType: 'application/gzip', filename: true,
        body: { type: 'string', contentMediaType: 'application/gzip', description: 'gzip NDJSON.' }, errors: pinnedErrors(404, 416),
      }) },
    }),
  ];
}
