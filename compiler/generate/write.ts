/**
 * NDJSON output with backpressure. Lines are gathered into chunks of about 256 KB (one write call per
 * line would cost more than making the line), and a chunk the stream will not take yet makes the
 * caller wait for 'drain', so memory stays bounded however large the catalog.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { CatalogError } from '../../snapshots/errors.js';

const CHUNK_CHARS = 256 * 1024;

export interface NdjsonWriter {
  readonly path: string;
  /** Lines written so far. */
  readonly lines: number;
  /** Queues one record (serialized in its own key order) and waits only when the stream is full. */
  write(record: object): Promise<void> | void;
  /** Flushes, closes the file and resolves once it is on disk. */
  close(): Promise<void>;
  /** Abandons the file after a failure. */
  destroy(): void;
}

export function openNdjson(path: string): NdjsonWriter {
  const stream: WriteStream = createWriteStream(path, { encoding: 'utf8' });
  let failure: Error | null = null;
  stream.on('error', (err) => {
    failure = err;
  });
  let pending: string[] = [];
  let pendingChars = 0;
  let lines = 0;

  // Resolves on `event`, or on an error or close (after which 'drain'/'finish' never come); removes
  // its listeners either way so thousands of waits do not pile up listeners.
  const settle = (event: 'drain' | 'finish') =>
    new Promise<void>((resolve) => {
      const done = () => {
        stream.off(event, done);
        stream.off('error', done);
        stream.off('close', done);
        resolve();
      };
      stream.on(event, done);
      stream.on('error', done);
      stream.on('close', done);
    });

  const fail = (): never => {
    throw new CatalogError('io', `cannot write ${path}: ${failure?.message}`, { path }, { cause: failure });
  };

  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    const chunk = pending.join('');
    pending = [];
    pendingChars = 0;
    if (!stream.write(chunk)) {
      await settle('drain');
    }
    if (failure) fail();
  };

  return {
    path,
    get lines() {
      return lines;
    },
    write(record) {
      if (failure) fail();
      const line = `${JSON.stringify(record)}\n`;
      pending.push(line);
      pendingChars += line.length;
      lines += 1;
      return pendingChars >= CHUNK_CHARS ? flush() : undefined;
    },
    async close() {
      await flush();
      if (!stream.writableFinished) {
        const finished = settle('finish');
        stream.end();
        await finished;
      }
      if (failure) fail();
    },
    destroy() {
      stream.destroy();
    },
  };
}
