/**
 * The catalog read from an HTTP export: `GET <base>/meta.json`, `GET <base>/cards.ndjson`, ...
 * On first use every file is fetched in the background, `concurrency` at a time (p-limit), in the
 * order the loader reads them, each to a temp file with retries (http-download.ts); `lines(kind)`
 * waits for its file and streams it from disk. So parsing cards overlaps downloading prices, memory
 * holds no file, and a retried download never duplicates a line.
 *
 * @example
 *   const source = createHttpSource(new URL('https://catalog.internal/export/'), { concurrency: 4, retries: 4, ... });
 *   try { await loadCatalog(source, { maxRejects: 0 }); } finally { await source.close(); }
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import type { Dispatcher } from 'undici';
import { CatalogError } from '../../snapshots/errors.js';
import { META_FILE, type CatalogMeta, type SourceKind } from '../../snapshots/records.js';
import type { CatalogSource, SourceLine } from './catalog-source.js';
import { fileOf, isOptionalKind, SOURCE_KINDS } from './files.js';
import { downloadFile } from './http-download.js';
import { fileChunks, splitLineBytes, splitLines, type ByteLine } from './lines.js';
import { fileUrl, redactUrl } from './location.js';
import { parseMeta } from './meta.js';

export interface HttpSourceSettings {
  concurrency: number;
  retries: number;
  fetchTimeoutMs: number;
  retryBaseMs: number;
  /** When absent the source makes its own pooled Agent and closes it in close(). */
  dispatcher?: Dispatcher;
}

/** A downloaded file: its local path, or null when the server has no such file (404/410). */
type Fetched = Promise<string | null>;

export function createHttpSource(base: URL, settings: HttpSourceSettings): CatalogSource {
  // undici is loaded with the first download, not with the compiler: a compile from a folder (the
  // usual one) never needs it, and importing it took about 120 ms of every compile's start.
  let ownAgent: Promise<Dispatcher> | null = null;
  const dispatcherOf = (): Promise<Dispatcher> =>
    settings.dispatcher !== undefined
      ? Promise.resolve(settings.dispatcher)
      : (ownAgent ??= import('undici').then(({ Agent }) => new Agent({ connections: settings.concurrency })));
  const aborter = new AbortController();
  const limit = pLimit(settings.concurrency);
  const fetched = new Map<string, Fetched>();
  let tempDir: Promise<string> | null = null;
  let closed = false;

  const ensureTempDir = (): Promise<string> =>
    (tempDir ??= fs.promises.mkdtemp(path.join(os.tmpdir(), 'catalog-source-')));

  const fetchFile = (file: string): Fetched => {
    let pending = fetched.get(file);
    if (pending === undefined) {
      pending = limit(async () => {
        if (aborter.signal.aborted) throw new CatalogError('internal', 'the catalog source is closed');
        const dest = path.join(await ensureTempDir(), file);
        // settings.dispatcher is undefined when the source made its own Agent: spread it first.
        const policy = { ...settings, dispatcher: await dispatcherOf(), signal: aborter.signal };
        return (await downloadFile(fileUrl(base, file), dest, policy)) ? dest : null;
      });
      // Prefetched files may fail before anyone asks for them; the failure is reported to the
      // caller that awaits that file, not as an unhandled rejection.
      pending.catch(() => {});
      fetched.set(file, pending);
    }
    return pending;
  };

  const prefetchAll = (): void => {
    if (closed) throw new CatalogError('internal', 'the catalog source is closed');
    fetchFile(META_FILE);
    for (const kind of SOURCE_KINDS) fetchFile(fileOf(kind));
  };

  const shownUrl = (file: string): string => redactUrl(fileUrl(base, file));

  /** One kind's file, once downloaded, split by `split` from disk. */
  async function* streamFile<L>(kind: SourceKind, split: (chunks: AsyncIterable<Buffer>) => AsyncGenerator<L>): AsyncGenerator<L> {
    prefetchAll();
    const file = fileOf(kind);
    const local = await fetchFile(file);
    if (local === null) {
      if (isOptionalKind(kind)) return;
      throw new CatalogError('invalid_source', `required file ${shownUrl(file)} is missing (HTTP 404)`, {
        url: shownUrl(file),
      });
    }
    yield* split(fileChunks(await fs.promises.open(local, 'r')));
  }

  return {
    describe: () => redactUrl(base),

    async readMeta(): Promise<CatalogMeta> {
      prefetchAll();
      const local = await fetchFile(META_FILE);
      if (local === null) {
        throw new CatalogError('invalid_source', `required file ${shownUrl(META_FILE)} is missing (HTTP 404)`, {
          url: shownUrl(META_FILE),
        });
      }
      return parseMeta(await fs.promises.readFile(local, 'utf8'), shownUrl(META_FILE));
    },

    lines(kind: SourceKind): AsyncGenerator<SourceLine> {
      return streamFile(kind, splitLines);
    },

    lineBytes(kind: SourceKind): AsyncGenerator<ByteLine[]> {
      return streamFile(kind, splitLineBytes);
    },

    localFile(file: string): Fetched {
      prefetchAll();
      return fetchFile(file);
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      // Queued downloads still run, but see the aborted signal and end at once; so every promise
      // settles and the temp folder can go.
      aborter.abort();
      await Promise.allSettled(fetched.values());
      if (tempDir !== null) await fs.promises.rm(await tempDir, { recursive: true, force: true });
      if (ownAgent !== null) await (await ownAgent).close();
    },
  };
}
