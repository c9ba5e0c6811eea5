/**
 * The mirror's HTTP client (undici, one pooled agent): bearer key on every request, the shared rate
 * gate, retries with exponential backoff and jitter on network errors and 5xx, `Retry-After` on 429.
 * Other 4xx are final and become a CatalogError with the server's message (never the key).
 *
 * @example
 *   const client = createMirrorClient({ baseUrl: 'https://api.example.com', key });
 *   const manifest = await client.getBytes('/v1/snapshot/manifest?snapshot=…');
 */
import { rm, stat } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, request, type Dispatcher } from 'undici';
import { CatalogError, type ErrorCode } from '../snapshots/errors.js';
import { getToFile } from '../snapshots/http/get-to-file.js';
import { createRateGate, type Clock, type RateGate } from './rate-gate.js';

export interface MirrorClientOptions {
  baseUrl: string;
  key: string;
  /** Connections to the origin (default 8). */
  connections?: number;
  /** Attempts per request on network errors and 5xx (default 6). */
  attempts?: number;
  clock?: Clock;
  /** Told about each retry and pause (one line, no key). */
  onRetry?: (message: string) => void;
  /** The connection pool to use (default: one of its own with `connections`, closed by `close`). */
  dispatcher?: Dispatcher;
}

/** One attempt's answer: its status and headers, then either its error text or its result. */
interface Answer<T> {
  statusCode: number;
  headers: IncomingHttpHeaders;
  text(): Promise<string>;
  drop(): Promise<void>;
  take(): Promise<T>;
}

/** A 206 for another range than the one asked: the partial file is dropped and fetched again. */
class RangeMismatch extends Error {}

const BODY_TIMEOUT_MS = 60_000;

export interface MirrorClient {
  getBytes(path: string): Promise<Buffer>;
  getJson<T>(path: string): Promise<T>;
  /**
   * Downloads into `dest`, resuming a partial file with `Range` + `If-Range: etag` (a changed file
   * restarts from zero). Returns the final size.
   */
  download(path: string, dest: string, expected: { etag: string; size: number }): Promise<number>;
  close(): Promise<void>;
  readonly gate: RateGate;
}

const realClock: Clock = { now: Date.now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };
/** 429s tolerated per request: each one already waited what the server asked. */
const MAX_RATE_LIMITED = 50;

const STATUS_CODES: Record<number, ErrorCode> = { 401: 'unauthenticated', 403: 'forbidden', 404: 'not_found', 410: 'gone', 416: 'range_not_satisfiable' };

export function createMirrorClient(o: MirrorClientOptions): MirrorClient {
  const base = o.baseUrl.replace(/\/+$/, '');
  const clock = o.clock ?? realClock;
  const gate = createRateGate(clock, o.connections ?? 8);
  const attempts = o.attempts ?? 6;
  const agent = o.dispatcher ?? new Agent({ connections: o.connections ?? 8, headersTimeout: 30_000, bodyTimeout: BODY_TIMEOUT_MS });
  const auth = { authorization: `Bearer ${o.key}` };

  /** One request with the retry policy; `attempt` sends it once, `take` consumes a 2xx answer. */
  async function send<T>(path: string, attempt: () => Promise<Answer<T>>): Promise<T> {
    let failures = 0;
    let limited = 0;
    for (;;) {
      await gate.wait();
      let res: Answer<T>;
      try {
        res = await attempt();
      } catch (err) {
        if (err instanceof CatalogError) throw err;
        // No answer, or (downloads) a body that broke off mid-way: retry, a download resumes.
        await backoff(path, `${(err as Error).message}`);
        continue;
      }
      gate.observe(res.headers, res.statusCode);
      if (res.statusCode === 429 && ++limited <= MAX_RATE_LIMITED) {
        await res.drop();
        o.onRetry?.(`${path}: rate limited, waiting as the server asked`);
        continue;
      }
      if (res.statusCode >= 500 || res.statusCode === 429) {
        await res.drop();
        await backoff(path, `HTTP ${res.statusCode}`);
        continue;
      }
      if (res.statusCode >= 400) {
        const text = await res.text();
        let message = `HTTP ${res.statusCode}`;
        try {
          message = (JSON.parse(text) as { message?: string }).message ?? message;
        } catch {
          // not our error body: keep the status
        }
        throw new CatalogError(STATUS_CODES[res.statusCode] ?? 'invalid_parameter', `${base}${path}: ${message}`, { status: res.statusCode });
      }
      try {
        return await res.take();
      } catch (err) {
        // The body broke off mid-way (connection reset, timeout): retry.
        if (err instanceof CatalogError) throw err;
        await backoff(path, `body interrupted (${(err as Error).message})`);
      }
    }

    async function backoff(p: string, why: string) {
      failures++;
      if (failures >= attempts) {
        throw new CatalogError('source_unreachable', `${base}${p}: gave up after ${failures} attempts (${why})`);
      }
      const ms = Math.min(30_000, 250 * 2 ** (failures - 1)) * (0.5 + Math.random() / 2);
      o.onRetry?.(`${p}: ${why}; retrying in ${Math.round(ms)} ms (attempt ${failures + 1} of ${attempts})`);
      await clock.sleep(ms);
    }
  }

  const getBytes = (path: string) => send(path, async (): Promise<Answer<Buffer>> => {
    const res = await request(`${base}${path}`, { dispatcher: agent, headers: auth });
    return {
      statusCode: res.statusCode,
      headers: res.headers,
      text: () => res.body.text(),
      drop: () => res.body.dump(),
      // Read at once into memory: the body never holds unread data, so undici is not paused.
      take: async () => Buffer.from(await res.body.arrayBuffer()),
    };
  });

  return {
    getBytes,
    async getJson<T>(path: string) {
      return JSON.parse((await getBytes(path)).toString('utf8')) as T;
    },
    async download(path, dest, expected) {
      const sizeNow = async () => (await stat(dest).catch(() => null))?.size ?? 0;
      // A part file as long as the whole is complete (its hash is checked by the caller); a longer one is junk.
      const start = await sizeNow();
      if (start === expected.size) return start;
      if (start > expected.size) await rm(dest, { force: true });
      return send(path, async (): Promise<Answer<number>> => {
        const from = await sizeNow();
        const resume: Record<string, string> = from > 0 && from < expected.size ? { range: `bytes=${from}-`, 'if-range': expected.etag } : {};
        // The body goes to disk as it arrives, written inside undici's data callback
        // (get-to-file.ts): a file stream that pushed back would pause undici's parser, which
        // crashes the process when the server closes the connection (issue 21). Bytes that arrived
        // before a broken connection are on disk for the next attempt to resume from.
        let got;
        try {
          got = await getToFile(new URL(`${base}${path}`), {
            dispatcher: agent,
            signal: new AbortController().signal,
            timeoutMs: BODY_TIMEOUT_MS,
            headers: { ...auth, ...resume },
            fileFor: (status, headers) => {
              // 206: the rest of the same file; 200: the whole file (no part yet, or If-Range said it changed).
              if (status === 206 && !String(headers['content-range'] ?? '').startsWith(`bytes ${from}-`)) {
                throw new RangeMismatch('the server sent a different range than asked');
              }
              if (status === 206) return { path: dest, append: true };
              return status >= 200 && status < 300 ? dest : null;
            },
          });
        } catch (err) {
          if (err instanceof RangeMismatch) await rm(dest, { force: true });
          throw err;
        }
        const body = got.body;
        return { statusCode: got.statusCode, headers: got.headers, text: async () => body.toString('utf8'), drop: async () => {}, take: sizeNow };
      });
    },
    close: async () => {
      if (o.dispatcher === undefined) await agent.close();
    },
    gate,
  };
}
