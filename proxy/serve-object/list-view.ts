/**
 * One page of a list as the client asked for it. Lists are stored as pages of STORED_PAGE_SIZE items
 * (snapshots/keys.ts). The default shape (limit 100, nothing adjusted) is the stored page itself and
 * is served byte-for-byte; any other page/limit is cut from at most two stored pages (a window of
 * <= 100 items never spans more), re-enveloped with its own page block and warnings, encoded with
 * the snapshot codec, and cached like a stored object.
 *
 * @example
 *   // limit 7, page 3 → items 14..20 of stored page 1
 *   await loadListView(loader, reader, { kind: 'set', game: 'mtg', code: 'lea' }, { page: 3, limit: 7, warnings: [] })
 */
import { CatalogError } from '../../snapshots/errors.js';
import { decodeDocument, encodeDocument } from '../../snapshots/codec.js';
import { pageInfo, type Envelope } from '../../snapshots/envelope.js';
import { STORED_PAGE_SIZE, listBase, listPageKey, type ListFamily } from '../../snapshots/keys.js';
import type { SnapshotReader } from '../../snapshots/store/types.js';
import type { ListParams } from '../http/params.js';
import { objectCacheKey, type ObjectLoader, type ServedObject } from './object-loader.js';

type StoredPage = Envelope<unknown[]>;

function decodePage(obj: ServedObject, key: string): StoredPage {
  const doc = decodeDocument<StoredPage>(obj.gzip);
  if (!Array.isArray(doc.data) || doc.page === null || typeof doc.page?.total !== 'number') {
    throw new CatalogError('internal', 'a stored list page is malformed', { key });
  }
  return doc;
}

/** The item count of the list a stored page belongs to, read from the page once and kept with it. */
export function listTotal(obj: ServedObject, key: string): number {
  if (obj.total === undefined) obj.total = decodePage(obj, key).page!.total;
  return obj.total;
}

/** A list page ready to send, with the item count of its whole list (for the Link header). */
export type ListObject = ServedObject & { total: number };

/** The requested page of `family`, or null when the list does not exist in this snapshot. */
export async function loadListView(
  loader: ObjectLoader,
  reader: SnapshotReader,
  family: ListFamily,
  params: ListParams,
): Promise<ListObject | null> {
  const { page, limit, warnings } = params;
  if (limit === STORED_PAGE_SIZE && warnings.length === 0) {
    const key = listPageKey(family, page);
    const stored = await loader.load(reader, key);
    if (stored) {
      listTotal(stored, key);
      return stored as ListObject;
    }
    // Past the end (or no such list): built below, which tells the two apart.
  }

  const viewKey = objectCacheKey(reader.id, `${listBase(family)}?page=${page}&limit=${limit}&warnings=${warnings.join('|')}`);
  const cached = loader.lookup(viewKey);
  if (cached) return cached as ListObject;

  const start = (page - 1) * limit;
  const firstStored = Math.floor(start / STORED_PAGE_SIZE) + 1;
  const firstKey = listPageKey(family, firstStored);
  const firstObj = await loader.load(reader, firstKey);
  let items: unknown[];
  let head: StoredPage;
  if (firstObj === null) {
    // No stored page holds `start`: either the list does not exist or the page is past its end.
    const page1Key = listPageKey(family, 1);
    const page1 = firstStored === 1 ? null : await loader.load(reader, page1Key);
    if (page1 === null) return null;
    head = decodePage(page1, page1Key);
    if (start < head.page!.total) throw new CatalogError('internal', 'a stored list page is missing', { key: firstKey });
    items = [];
  } else {
    head = decodePage(firstObj, firstKey);
    const total = head.page!.total;
    const end = Math.min(start + limit, total);
    const offset = start - (firstStored - 1) * STORED_PAGE_SIZE;
    items = head.data.slice(offset, offset + Math.max(0, end - start));
    const lastStored = end > 0 ? Math.floor((end - 1) / STORED_PAGE_SIZE) + 1 : firstStored;
    if (lastStored > firstStored) {
      const nextKey = listPageKey(family, lastStored);
      const nextObj = await loader.load(reader, nextKey);
      if (nextObj === null) throw new CatalogError('internal', 'a stored list page is missing', { key: nextKey });
      items = items.concat(decodePage(nextObj, nextKey).data.slice(0, end - (lastStored - 1) * STORED_PAGE_SIZE));
    }
  }

  const total = head.page!.total;
  const view: StoredPage = {
    ...head,
    data: items,
    page: pageInfo(page, limit, total),
    warnings: [...head.warnings, ...warnings],
  };
  return loader.remember(viewKey, encodeDocument(view), total) as ListObject;
}
