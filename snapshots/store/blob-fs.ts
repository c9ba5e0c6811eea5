/**
 * The folder store: one file per object under a root folder, the key's segments as folders. The
 * embedded default: no server, and nginx can serve the same files.
 *
 * @example
 *   const store = createFolderBlobStore('/srv/snapshots');
 *   await store.put('current', Buffer.from('20261124T000000Z-1a2b3c4d\n'));
 *   await store.getRange('packs/3f/3fa1.pack', 4096, 1200);   // one pread on the open file
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { open, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { CatalogError } from '../errors.js';
import { checkKey, checkPrefix, checkRange, rangeOutside, type BlobInfo, type BlobStore } from './blob-store.js';
import { makeDirs } from './make-dirs.js';

const isMissing = (err: unknown) => {
  const code = (err as NodeJS.ErrnoException).code;
  // EISDIR/ENOTDIR: a key that is a folder of other keys, or runs through an object, is no object.
  return code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR';
};

let tempCounter = 0;

export function createFolderBlobStore(root: string): BlobStore {
  if (typeof root !== 'string' || root === '') throw new CatalogError('usage', 'createFolderBlobStore: root must be a folder path', { option: 'root' });
  const pathOf = (key: string) => {
    checkKey(key);
    return join(root, key);
  };
  return {
    location: root,
    async put(key, body) {
      const path = pathOf(key);
      const dir = dirname(path);
      await makeDirs(dir);
      // A temporary name in the same folder (same file system, so rename is atomic) that no key can
      // name (keys have no segment starting with '.'): a reader sees the old object or the whole new
      // one, and a crash leaves only a hidden file behind.
      const temp = join(dir, `.${basename(path)}.${process.pid}.${++tempCounter}.partial`);
      let out: WriteStream | null = null;
      try {
        // flush: fsync before close, so the rename never points at data still only in the page cache.
        if (Buffer.isBuffer(body)) await writeFile(temp, body, { flush: true });
        else await pipeline(body, (out = createWriteStream(temp, { flush: true })));
        await rename(temp, path);
      } catch (err) {
        // A source that fails at once rejects the pipeline while the file is still being opened: the
        // stream creates it after that, so it is removed only once the stream has closed.
        if (out !== null && !out.closed) await new Promise<void>((done) => out!.once('close', () => done()));
        await unlink(temp).catch(() => undefined);
        throw err;
      }
      await syncFolder(dir);
    },
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async getRange(key, offset, length) {
      const path = pathOf(key);
      checkRange(key, offset, length);
      let file;
      try {
        file = await open(path, 'r');
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
      try {
        const { size } = await file.stat();
        if (offset + length > size) throw rangeOutside(key, offset, length, size);
        const out = Buffer.allocUnsafe(length);
        for (let done = 0; done < length; ) {
          const { bytesRead } = await file.read(out, done, length - done, offset + done);
          if (bytesRead === 0) throw rangeOutside(key, offset, length, offset + done);
          done += bytesRead;
        }
        return out;
      } finally {
        await file.close();
      }
    },
    async head(key) {
      try {
        const s = await stat(pathOf(key));
        return s.isFile() ? { size: s.size } : null;
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    list(prefix) {
      checkPrefix(prefix);
      // Start in the deepest folder the prefix names whole; a partial last segment filters there.
      const start = prefix === '' || prefix.endsWith('/') ? prefix : prefix.slice(0, prefix.lastIndexOf('/') + 1);
      return walk(root, start, prefix);
    },
    async delete(key) {
      try {
        await unlink(pathOf(key));
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
    },
    async close() {},
  };
}

/** fsync of a folder makes a rename in it durable; file systems that refuse it lose nothing else. */
async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'EISDIR' && code !== 'EPERM') throw err;
  } finally {
    await handle.close();
  }
}

/**
 * Files under `root/folder`, in the order of their keys compared as strings (the order S3 lists
 * in): a folder's entries are sorted with a `/` after each folder name, which is where its keys fall
 * among its siblings'. Hidden names (temporary files) and anything that is neither file nor folder
 * (links included) are not objects.
 */
async function* walk(root: string, folder: string, prefix: string): AsyncGenerator<BlobInfo> {
  let entries;
  try {
    entries = await readdir(join(root, folder), { withFileTypes: true });
  } catch (err) {
    if (isMissing(err)) return;
    throw err;
  }
  const sorted = entries
    .filter((e) => !e.name.startsWith('.') && (e.isFile() || e.isDirectory()))
    .map((e) => ({ e, order: e.isDirectory() ? `${e.name}/` : e.name }))
    .sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
  for (const { e, order } of sorted) {
    const key = folder + order;
    if (e.isDirectory()) {
      if (key.startsWith(prefix) || prefix.startsWith(key)) yield* walk(root, key, prefix);
    } else if (key.startsWith(prefix)) {
      const s = await stat(join(root, key)).catch((err) => (isMissing(err) ? null : Promise.reject(err)));
      // Deleted between readdir and stat: gone, as it would be from a later S3 page.
      if (s !== null) yield { key, size: s.size };
    }
  }
}
