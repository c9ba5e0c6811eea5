/**
 * GET /v1/snapshot — the current snapshot: id, creation time, data date, previous snapshot, object
 * and entity counts, the manifest's hash and whether it is signed, the fingerprint of the public key
 * this server publishes, and the bulk files. A mirror starts here (docs/mirroring.md).
 */
import type { Context } from 'hono';
import { envelope } from '../../snapshots/envelope.js';
import type { ProxyEnv } from '../env.js';
import { respondJson } from '../snapshot-files/respond-json.js';
import type { SnapshotFiles } from '../snapshot-files/snapshot-files.js';
import { summaryOf } from '../snapshot-files/snapshot-list.js';

export async function answerSnapshot(c: Context<ProxyEnv>, files: SnapshotFiles, snapshotId: string | undefined, publicKeyFingerprint: string | null): Promise<Response> {
  const reader = await files.pin(c, snapshotId);
  const m = await files.manifest(reader);
  const bulk = m.header.bulk ?? [];
  // The fields in the order the answer always had (the ETag is the hash of these bytes).
  const { asOf: _asOf, ...summary } = summaryOf(reader.id, m.header);
  return respondJson(c, envelope('snapshot', m.header.asOf, {
    ...summary,
    manifest: { url: '/v1/snapshot/manifest', size: m.size, sha256: m.sha256, signed: m.signature !== null },
    publicKeyFingerprint,
    bulk: bulk.map((b) => ({ name: b.name, url: `/v1/bulk/${b.name}`, count: b.count, size: b.size, sha256: b.sha256 })),
  }));
}
