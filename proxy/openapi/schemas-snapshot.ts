/**
 * Schemas of the snapshot, bulk and mirror routes (proxy/routes/snapshot*.ts, bulk.ts;
 * docs/mirroring.md) and of the health answers (proxy/ops/health-routes.ts).
 */
import { SIGNATURE_FORMAT, SIGNATURE_VERSION } from '../../snapshots/signature.js';
import { SNAPSHOT_ID } from './headers.js';
import { arrayOf, closed, int, nullable, ref, str, timestamp, type Schema } from './schema-kit.js';
import { envelopeSchema } from './schemas-common.js';

export const snapshotId = (description?: string): Schema =>
  ({ type: 'string', pattern: `^${SNAPSHOT_ID}$`, ...(description ? { description } : {}) });
const sha256 = (description: string): Schema => ({ type: 'string', pattern: '^[0-9a-f]{64}$', description });
const fingerprint = (description: string): Schema => ({ type: 'string', pattern: '^sha256:[0-9a-f]{64}$', description });
const bulkUrl = (): Schema => ({ type: 'string', pattern: '^/v1/bulk/[a-z0-9][a-z0-9-]*$', description: 'Where to download it.' });

export function snapshotSchemas(): Record<string, Schema> {
  const bulkFields = {
    name: str('`cards`, `figures`, `oracle`, `sets` or `changes`.'),
    url: bulkUrl(),
    count: int('Records (lines) in the file.'),
    size: int('Bytes of the gzip file.'),
    sha256: sha256('SHA-256 of the gzip file: its ETag, and what the manifest lists.'),
  };
  return {
    Snapshot: closed({
      snapshotId: snapshotId('The current snapshot, or the one `snapshot=` pinned.'),
      createdAt: timestamp('When it was compiled.'),
      previous: nullable(snapshotId('The snapshot it was compiled incrementally against.')),
      objects: int('Stored objects (documents) in it.'),
      counts: closed({ cards: nullable(int()), figures: nullable(int()), sets: nullable(int()), oracle: nullable(int()) }, 'Entities, from the bulk files (null when the snapshot has none).'),
      changes: closed({ new: int(), changed: int(), unchanged: int(), removed: int() }, 'Objects against the previous snapshot.'),
      manifest: closed({
        url: { type: 'string', const: '/v1/snapshot/manifest' },
        size: int('Bytes.'),
        sha256: sha256('SHA-256 of the manifest bytes (its ETag).'),
        signed: { type: 'boolean', description: 'Whether `GET /v1/snapshot/signature` has a signature.' },
      }),
      publicKeyFingerprint: nullable(fingerprint('Fingerprint of the key `GET /v1/snapshot/public-key` publishes; null when the server publishes none.')),
      bulk: arrayOf(closed(bulkFields)),
    }, 'A snapshot: what a mirror reads first.'),
    KeptSnapshot: closed({
      snapshotId: snapshotId('A kept snapshot: `snapshot=<this>` reads any catalog route as of it.'),
      createdAt: timestamp('When it was compiled.'),
      asOf: nullable(timestamp('The day its data is true for.')),
      previous: nullable(snapshotId('The snapshot it was compiled incrementally against (it may be pruned since).')),
      objects: int('Stored objects (documents) in it.'),
      counts: closed({ cards: nullable(int()), figures: nullable(int()), sets: nullable(int()), oracle: nullable(int()) }, 'Entities, from the bulk files (null when the snapshot has none).'),
      changes: closed({ new: int(), changed: int(), unchanged: int(), removed: int() }, 'Objects against `previous`.'),
      url: { type: 'string', pattern: `^/v1/snapshot\\?snapshot=${SNAPSHOT_ID}$`, description: 'Its metadata (`GET /v1/snapshot` pinned to it).' },
    }, 'A kept snapshot.'),
    BulkFiles: closed({
      snapshotId: snapshotId(),
      files: arrayOf(closed({ ...bulkFields, contentType: { type: 'string', const: 'application/gzip' } })),
    }, 'The bulk files of a snapshot: gzip NDJSON, one record per line.'),
    SnapshotChange: {
      type: 'object', additionalProperties: false, required: ['key', 'change'],
      properties: {
        key: str('A manifest key (`GET /v1/snapshot/objects/<key>` fetches it).'),
        change: { type: 'string', enum: ['new', 'changed', 'removed'] },
        size: int('Bytes in the newer snapshot (absent when removed).'),
        sha256: sha256('SHA-256 in the newer snapshot (absent when removed).'),
      },
    },
    SnapshotChanges: closed({
      since: snapshotId(),
      snapshotId: snapshotId(),
      changes: arrayOf(ref('SnapshotChange'), 'By key.'),
      counts: closed({ new: int(), changed: int(), removed: int() }),
    }, 'Every key new, changed or removed between `since` and the snapshot.'),
    ManifestSignature: closed({
      format: { type: 'string', const: SIGNATURE_FORMAT },
      version: { type: 'integer', const: SIGNATURE_VERSION },
      algorithm: { type: 'string', const: 'ed25519' },
      snapshotId: snapshotId(),
      sha256: sha256('SHA-256 of the manifest.'),
      size: int('Bytes of the manifest.'),
      keyFingerprint: fingerprint('The signing key\'s public half (informative: the signature decides).'),
      signature: { type: 'string', contentEncoding: 'base64', description: `Ed25519 over the statement \`${SIGNATURE_FORMAT}/${SIGNATURE_VERSION}\\nsnapshot <snapshotId>\\nsha256 <sha256>\\nsize <size>\\n\` (docs/mirroring.md checks it with openssl).` },
    }, 'The detached signature of a manifest (docs/snapshots.md).'),
    Health: closed({ status: { type: 'string', enum: ['ok', 'ready', 'not_ready'] } }, 'A status word and nothing else.'),
  };
}

export function snapshotSchemasWithEnvelope(): Record<string, Schema> {
  return {
    SnapshotEnvelope: envelopeSchema('snapshot', ref('Snapshot'), false, 'The snapshot of /v1/snapshot.'),
    BulkFilesEnvelope: envelopeSchema('bulkFiles', ref('BulkFiles'), false, 'The bulk files of /v1/bulk.'),
    SnapshotChangesEnvelope: envelopeSchema('snapshotChanges', ref('SnapshotChanges'), false, 'The changes of /v1/snapshot/changes.'),
    SnapshotsEnvelope: envelopeSchema('snapshots', ref('KeptSnapshot'), true, 'A page of the kept snapshots of /v1/snapshots.'),
  };
}
