/**
 * Downloads one file of an HTTP export to a local file, with retries. The whole body lands on
 * disk before any line is read, so a retry after a body cut short starts the file over without
 * ever handing out a line twice (the simpler of the two designs: no resumable line bookkeeping).
 *
 * The body goes to disk from undici's own data callback, each chunk written before the next is
 * parsed, and never pushes back on undici (snapshots/http/get-to-file.ts says why: undici 7 crashes the process
 * when a server closes the connection while a body is paused). An encoded body (gzip, br, deflate)
 * is stored as it came and decoded from disk once it is complete.
 *
 * @example
 *   const found = await downloadFile(new URL('https://host/export/cards.ndjson'), '/tmp/x/cards.ndjson', policy);
 *   // found === false: the server answered 404/410 (the caller decides whether that file was required)
 */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { IncomingHttpHeaders } from 'node:http';
import type { Transform } from 'node:stream';
import type { Dispatcher } from 'undici';
import { CatalogError } from '../../snapshots/errors.js';
import { getToFile } from '../../snapshots/http/get-to-file.js';
import { redactUrl } from './location.js';
import { backoffMs, isTransientError, MAX_RETRY_AFTER_MS, retryAfterMs, TRANSIENT_STATUSES } from './retry.js';

export interface DownloadPolicy {
  dispatcher: Dispatcher;
  /** Extra attempts after the first one. */
  retries: number;
  /** Longest silence allowed while waiting for headers, and between two body chunks. */
  fetchTimeoutMs: number;
  /** First backoff step; doubles per attempt. */
  retryBaseMs: number;
  /** Aborted when the source is closed: stops the download and any wait between attempts. */
  signal: AbortSignal;
  random?: () => number;
}

/** Statuses that mean "this file is not in the export": the same answer on every retry. */
const MISSING_STATUSES = new Set([404, 410]);

const ACCEPT = { accept: 'application/x-ndjson, application/json;q=0.9, */*;q=0.1', 'accept-encoding': 'gzip, br' };

export async function downloadFile(url: URL, dest: string, policy: DownloadPolicy): Promise<boolean> {
  const shown = redactUrl(url);
  const random = policy.random ?? Math.random;
  // An encoded body is stored here first, then decoded into `dest`.
  const encodedPath = `${dest}.encoded`;
  let lastProblem = '';
  for (let attempt = 0; ; attempt += 1) {
    let waitMs: number | null = null;
    try {
      // Opening the file anew truncates it: a retried download starts from an empty file.
      const res = await getToFile(url, {
        dispatcher: policy.dispatcher,
        signal: policy.signal,
        timeoutMs: policy.fetchTimeoutMs,
        headers: ACCEPT,
        // The encoding is checked before the body comes, so an unsupported one downloads nothing.
        fileFor: (status, headers) => (status !== 200 ? null : encodingOf(headers, shown) === 'identity' ? dest : encodedPath),
      });
      if (res.statusCode === 200) {
        const encoding = encodingOf(res.headers, shown);
        if (encoding !== 'identity') {
          await pipeline(fs.createReadStream(encodedPath), decoderOf(encoding), fs.createWriteStream(dest));
          await fs.promises.rm(encodedPath, { force: true });
        }
        return true;
      }
      if (MISSING_STATUSES.has(res.statusCode)) return false;
      if (!TRANSIENT_STATUSES.has(res.statusCode)) {
        // 400, 401, 403, 501...: the same request will get the same answer.
        throw new CatalogError('source_unreachable', `GET ${shown} answered HTTP ${res.statusCode}`, {
          url: shown,
          status: res.statusCode,
        });
      }
      lastProblem = `HTTP ${res.statusCode}`;
      waitMs = retryAfterMs(res.headers['retry-after'], Date.now(), MAX_RETRY_AFTER_MS);
    } catch (err) {
      if (err instanceof CatalogError) throw err;
      if (policy.signal.aborted) throw closed(shown, err);
      if (!isTransientError(err)) throw nonTransient(shown, err);
      lastProblem = describeError(err);
    }
    if (attempt >= policy.retries) {
      throw new CatalogError(
        'source_unreachable',
        `GET ${shown} failed after ${attempt + 1} attempt${attempt === 0 ? '' : 's'} (last: ${lastProblem})`,
        { url: shown },
      );
    }
    try {
      await sleep(waitMs ?? backoffMs(attempt, policy.retryBaseMs, random), undefined, { signal: policy.signal });
    } catch (err) {
      throw closed(shown, err);
    }
  }
}

type Encoding = 'identity' | 'gzip' | 'br' | 'deflate';

function encodingOf(headers: IncomingHttpHeaders, shown: string): Encoding {
  const header = headers['content-encoding'];
  const value = (Array.isArray(header) ? header.join(',') : header ?? '').trim().toLowerCase();
  if (value === '' || value === 'identity') return 'identity';
  if (value === 'gzip' || value === 'x-gzip') return 'gzip';
  if (value === 'br' || value === 'deflate') return value;
  throw new CatalogError('source_unreachable', `GET ${shown} answered with an unsupported Content-Encoding ${value}`, { url: shown });
}

function decoderOf(encoding: Exclude<Encoding, 'identity'>): Transform {
  if (encoding === 'gzip') return zlib.createGunzip();
  if (encoding === 'br') return zlib.createBrotliDecompress();
  return zlib.createInflate();
}

function describeError(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return e.code !== undefined ? `${e.code}: ${e.message ?? ''}`.trim() : String(e.message ?? err);
}

function closed(shown: string, cause: unknown): CatalogError {
  return new CatalogError('source_unreachable', `GET ${shown} stopped: the source was closed`, { url: shown }, { cause });
}

function nonTransient(shown: string, err: unknown): CatalogError {
  // Errors of the local write side (disk full, permissions) carry the fs syscall.
  const syscall = (err as { syscall?: string }).syscall;
  if (syscall === 'open' || syscall === 'write' || syscall === 'close' || syscall === 'fsync' || syscall === 'read') {
    return new CatalogError('io', `cannot store ${shown} locally: ${describeError(err)}`, { url: shown }, { cause: err });
  }
  return new CatalogError('source_unreachable', `GET ${shown} failed: ${describeError(err)}`, { url: shown }, { cause: err });
}
