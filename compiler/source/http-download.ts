/**
 * Downloads one file of an HTTP export to a local file, with retries. The whole body lands on
 * disk before any line is read, so a retry after a body cut short starts the file over without
 * ever handing out a line twice (the simpler of the two designs: no resumable line bookkeeping).
 *
 * @example
 *   const found = await downloadFile(new URL('https://host/export/cards.ndjson'), '/tmp/x/cards.ndjson', policy);
 *   // found === false: the server answered 404/410 (the caller decides whether that file was required)
 */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { Transform } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import { CatalogError } from '../../snapshots/errors.js';
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

export async function downloadFile(url: URL, dest: string, policy: DownloadPolicy): Promise<boolean> {
  const shown = redactUrl(url);
  const random = policy.random ?? Math.random;
  let lastProblem = '';
  for (let attempt = 0; ; attempt += 1) {
    let waitMs: number | null = null;
    try {
      const res = await request(url, {
        method: 'GET',
        dispatcher: policy.dispatcher,
        signal: policy.signal,
        headersTimeout: policy.fetchTimeoutMs,
        bodyTimeout: policy.fetchTimeoutMs,
        headers: { accept: 'application/x-ndjson, application/json;q=0.9, */*;q=0.1', 'accept-encoding': 'gzip, br' },
      });
      if (res.statusCode === 200) {
        let decoder: Transform | null;
        try {
          decoder = decoderFor(res.headers['content-encoding'], shown);
        } catch (err) {
          res.body.destroy();
          throw err;
        }
        // Opening the file anew truncates it: a retried download starts from an empty file.
        if (decoder === null) await pipeline(res.body, fs.createWriteStream(dest));
        else await pipeline(res.body, decoder, fs.createWriteStream(dest));
        return true;
      }
      await res.body.dump();
      if (MISSING_STATUSES.has(res.statusCode)) return false;
      if (!TRANSIENT_STATUSES.has(res.statusCode)) {
        // 400, 401, 403, 500...: the same request will get the same answer.
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

function decoderFor(encoding: string | string[] | undefined, shown: string): Transform | null {
  const value = (Array.isArray(encoding) ? encoding.join(',') : encoding ?? '').trim().toLowerCase();
  if (value === '' || value === 'identity') return null;
  if (value === 'gzip' || value === 'x-gzip') return zlib.createGunzip();
  if (value === 'br') return zlib.createBrotliDecompress();
  if (value === 'deflate') return zlib.createInflate();
  throw new CatalogError('source_unreachable', `GET ${shown} answered with an unsupported Content-Encoding ${value}`, { url: shown });
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
  if (syscall === 'open' || syscall === 'write' || syscall === 'close' || syscall === 'fsync') {
    return new CatalogError('io', `cannot store ${shown} locally: ${describeError(err)}`, { url: shown }, { cause: err });
  }
  return new CatalogError('source_unreachable', `GET ${shown} failed: ${describeError(err)}`, { url: shown }, { cause: err });
}
