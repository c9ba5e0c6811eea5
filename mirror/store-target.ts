/**
 * A mirror on an object store (`catalog mirror --to s3://bucket/prefix`): like a mirror folder
 * (target.ts), the prefix is marked by `catalog-mirror.json`, and a prefix that holds anything else
 * is refused before a byte is written, so a mirror never mixes its snapshots into an operator's
 * compile output or someone else's data.
 *
 * @example
 *   await openStoreMirrorTarget(store, 'https://api.example.com')   // writes the marker into an empty prefix
 */
import { CatalogError } from '../snapshots/errors.js';
import type { BlobStore } from '../snapshots/store/blob-store.js';
import { MIRROR_MARKER, type MirrorMarker } from './target.js';

export async function openStoreMirrorTarget(store: BlobStore, origin: string): Promise<void> {
  const bytes = await store.get(MIRROR_MARKER);
  if (bytes !== null) {
    let marker: Partial<MirrorMarker> = {};
    try {
      marker = JSON.parse(bytes.toString('utf8')) as Partial<MirrorMarker>;
    } catch {
      // judged below
    }
    if (marker.format !== 'catalog-mirror') throw new CatalogError('usage', `--to ${store.location}: ${MIRROR_MARKER} is not a catalog mirror marker`, { option: 'to' });
    return;
  }
  for await (const item of store.list('')) {
    throw new CatalogError('usage', `--to ${store.location} is not empty (it holds ${item.key}) and is not a catalog mirror (no ${MIRROR_MARKER}); ` +
      'nothing was written. Give a new or empty prefix, or an existing mirror.', { option: 'to' });
  }
  const marker: MirrorMarker = { format: 'catalog-mirror', version: 1, origin };
  await store.put(MIRROR_MARKER, Buffer.from(JSON.stringify(marker) + '\n'), { contentType: 'application/json' });
}
