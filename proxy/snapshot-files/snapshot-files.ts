/**
 * What the snapshot and bulk routes share: which snapshot a request reads, and the facts of its
 * manifest (header, SHA-256, size, signature). A request may pin a kept snapshot with
 * `?snapshot=<id>`, so a mirror reads the manifest and every object of ONE snapshot even when a
 * publish happens mid-sync; an id that is no longer kept is 410 `gone`. Manifest facts are computed
 * once per manifest version (size + mtime: a published manifest never changes, but if an operator
 * replaces one the ETag must follow) and kept for the few newest.
 *
 * @example
 *   const files = createSnapshotFiles({ serve, snapshots });
 *   const reader = await files.pin(c, undefined);   // the current snapshot
 *   (await files.manifest(reader)).header.bulk
 */
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import { MANIFEST_FILE, MANIFEST_SIGNATURE_FILE } from '../../snapshots/keys.js';
import { MANIFEST_FORMAT, type ManifestHeader } from '../../snapshots/manifest.js';
import { isSnapshotId } from '../../snapshots/store/pointer.js';
import type { SnapshotFile, SnapshotReader, SnapshotSource } from '../../snapshots/store/types.js';
import type { ProxyEnv } from '../env.js';
import type { ObjectServer } from '../serve-object/object-server.js';

export interface ManifestFacts {
  header: ManifestHeader;
  sha256: string;
  size: number;
  /** The signature file's text, or null for an unsigned snapshot. */
  signature: string | null;
}

export interface SnapshotFiles {
  /** The kept snapshot `snapshotId` (checked already: route-table/params.ts), else the current one. */
  pin(c: Context<ProxyEnv>, snapshotId: string | undefined): Promise<SnapshotReader>;
  manifest(reader: SnapshotReader): Promise<ManifestFacts>;
  /** A kept snapshot by id (for `since`), or 410 `gone`. */
  kept(id: string, parameter: string): Promise<SnapshotReader>;
}

const KEPT_FACTS = 8;

/** The id of a `snapshot`/`since` parameter, checked before it becomes a path. */
export function requireSnapshotId(raw: string | undefined, parameter: string): string {
  if (raw === undefined || !isSnapshotId(raw)) {
    throw new CatalogError('invalid_parameter', `${parameter} must be a snapshot id such as 20261122T020000Z-1a2b3c4d`, { parameter });
  }
  return raw;
}

async function hashAndHeader(file: SnapshotFile): Promise<{ sha256: string; header: ManifestHeader }> {
  const hash = createHash('sha256');
  let firstLine: string | null = null;
  let head = '';
  for await (const chunk of file.stream(0, Math.max(0, file.size - 1))) {
    const b = chunk as Buffer;
    hash.update(b);
    if (firstLine === null) {
      head += b.toString('utf8');
      const nl = head.indexOf('\n');
      if (nl >= 0) firstLine = head.slice(0, nl);
    }
  }
  const header = JSON.parse(firstLine ?? head) as ManifestHeader;
  if (header.format !== MANIFEST_FORMAT) throw new Error('not a catalog manifest');
  return { sha256: hash.digest('hex'), header };
}

export function createSnapshotFiles(deps: { serve: ObjectServer; snapshots: SnapshotSource }): SnapshotFiles {
  const facts = new Map<string, Promise<ManifestFacts>>();

  return {
    pin: (c, snapshotId) => deps.serve.pinAt(c, snapshotId),
    async manifest(reader) {
      const file = await reader.file(MANIFEST_FILE);
      if (file === null) throw new CatalogError('internal', 'a published snapshot has no manifest', { snapshotId: reader.id });
      const cacheKey = `${reader.id}\u0000${file.version}`;
      let p = facts.get(cacheKey);
      if (p === undefined) {
        p = (async () => {
          const { sha256, header } = await hashAndHeader(file);
          const sig = await reader.file(MANIFEST_SIGNATURE_FILE);
          return { header, sha256, size: file.size, signature: sig === null ? null : (await sig.bytes()).toString('utf8') };
        })();
        facts.set(cacheKey, p);
        // A failure is not remembered; otherwise keep only the newest few manifests' facts.
        p.catch(() => facts.delete(cacheKey));
        if (facts.size > KEPT_FACTS) facts.delete(facts.keys().next().value!);
      }
      return p;
    },
    kept: (id, parameter) => deps.serve.kept(id, parameter),
  };
}
