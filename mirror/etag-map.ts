/**
 * nginx map lines that give a mirror the origin's ETags. nginx's own ETag is mtime-size; with
 * `etag off` and `add_header ETag $catalog_etag` (docs/mirroring.md) every object gets the manifest
 * SHA-256 instead, exactly as the proxy sends it. Keys are `<snapshotId>:<URI>`, the URI as nginx
 * sees it after the config's rewrites (`.json`, gzip_static adds `.gz`), and the snapshot id is taken
 * from the folder `current` resolves to, so a map loaded before a switch never labels the new
 * snapshot's bytes with old tags (they get no ETag until nginx reloads).
 *
 * @example
 *   etagMapLine('S', '/v1/cards/x/30d.json', 'ab…')  // '"S:/v1/cards/x/30d.json" "\\"ab…\\"";\n'
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { MANIFEST_FILE, MANIFEST_SIGNATURE_FILE } from '../snapshots/keys.js';
import type { BulkFile } from '../snapshots/manifest.js';
import { hashFile } from '../snapshots/store/verify-folder.js';

export const ETAG_MAP_FILE = 'etags.map';

export function etagMapLine(snapshotId: string, uri: string, sha256: string): string {
  return `"${snapshotId}:${uri}" "\\"${sha256}\\"";\n`;
}

/** The URI nginx serves an object key under: gzip_static finds `<uri>.gz`. */
export const uriOfKey = (key: string) => `/${key.slice(0, -'.gz'.length)}`;

export async function writeEtagMap(path: string, snapshotId: string, lines: Iterable<{ uri: string; sha256: string }>): Promise<void> {
  const out = createWriteStream(path);
  for (const l of lines) {
    if (!out.write(etagMapLine(snapshotId, l.uri, l.sha256))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/**
 * The map of a staged snapshot folder: its objects (key and SHA-256, from the manifest or the object
 * index), its bulk files, and the manifest and signature as they lie in the folder.
 */
export async function writeSnapshotEtagMap(dir: string, snapshotId: string, objects: Iterable<{ key: string; sha256: string }>, bulk: BulkFile[]): Promise<void> {
  const files: { uri: string; sha256: string }[] = [];
  for (const name of [MANIFEST_FILE, MANIFEST_SIGNATURE_FILE]) {
    const got = await hashFile(join(dir, name));
    if (got) files.push({ uri: `/${name}`, sha256: got.sha256 });
  }
  await writeEtagMap(join(dir, ETAG_MAP_FILE), snapshotId, (function* () {
    for (const o of objects) yield { uri: uriOfKey(o.key), sha256: o.sha256 };
    for (const b of bulk) yield { uri: `/${b.file}`, sha256: b.sha256 };
    yield* files;
  })());
}
