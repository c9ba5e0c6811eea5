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

/** `20261122T021830Z-3c48fccd` → `2026-11-22T02:18:30.000Z` (ids are made from the compile's clock). */
export function createdAtOf(snapshotId: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z/.exec(snapshotId)!;
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.000Z`;
}

export async function answerSnapshot(c: Context<ProxyEnv>, files: SnapshotFiles, snapshotId: string | undefined, publicKeyFingerprint: string | null): Promise<Response> {
  const reader = await files.pin(c, snapshotId);
  const m = await files.manifest(reader);
  const bulk = m.header.bulk ?? [];
  const countOf = (name: string) => bulk.find((b) => b.name === name)?.count ?? null;
  return respondJson(c, envelope('snapshot', m.header.asOf, {
    snapshotId: reader.id,
    createdAt: createdAtOf(reader.id),
    previous: m.header.previous,
    objects: m.header.objects,
    counts: { cards: countOf('cards'), figures: countOf('figures'), sets: countOf('sets'), oracle: countOf('oracle') },
    changes: m.header.counts,
    manifest: { url: '/v1/snapshot/manifest', size: m.size, sha256: m.sha256, signed: m.signature !== null },
    publicKeyFingerprint,
    bulk: bulk.map((b) => ({ name: b.name, url: `/v1/bulk/${b.name}`, count: b.count, size: b.size, sha256: b.sha256 })),
  }));
}
