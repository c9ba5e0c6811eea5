/**
 * The mirror's HTTP client (undici, one pooled agent): bearer key on every request, the shared rate
 * gate, retries with exponential backoff and jitter on network errors and 5xx, `Retry-After` on 429.
 * Other 4xx are final and become a CatalogError with the server's message (never the key).
 *
 * @example
 *   const client = createMirrorClient({ baseUrl: 'https://api.example.com', key });
 *   const manifest = await client.getBytes('/v1/snapshot/manifest?snapshot=…');
 */
import { open, rm, stat } from 'node:fs/promises';
import { Agent, request, type Dispatcher } from 'undici';
import { CatalogError, type ErrorCode } from '../snapshots/errors.js';
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
}

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
  const agent = new Agent({ connections: o.connections ?? 8, headersTimeout: 30_000, bodyTimeout: 60_000 });

  /** One request with the retry policy; `handle` consumes a 2xx response. */
  async function send<T>(path: string, headers: () => Promise<Record<string, string>>, handle: (res: Dispatcher.ResponseData) => Promise<T>): Promise<T> {
    let failures = 0;
    let limited = 0;
    for (;;) {
      await gate.wait();
      let res: Dispatcher.ResponseData;
      try {
        res = await request(`${base}${path}`, { dispatcher: agent, headers: { authorization: `Bearer ${o.key}`, ...(await headers()) } });
      } catch (err) {
        await backoff(path, `${(err as Error).message}`);
        continue;
      }
      gate.observe(res.headers, res.statusCode);
      if (res.statusCode === 429 && ++limited <= MAX_RATE_LIMITED) {
        await res.body.dump();
        o.onRetry?.(`${path}: rate limited, waiting as the server asked`);
        continue;
      }
      if (res.statusCode >= 500 || res.statusCode === 429) {
        await res.body.dump();
        await backoff(path, `HTTP ${res.statusCode}`);
        continue;
      }
      if (res.statusCode >= 400) {
        const text = await res.body.text();
        let message = `HTTP ${res.statusCode}`;
        try {
          message = (JSON.parse(text) as { message?: string }).message ?? message;
        } catch {
          // not our error body: keep the status
        }
        throw new CatalogError(STATUS_CODES[res.statusCode] ?? 'invalid_parameter', `${base}${path}: ${message}`, { status: res.statusCode });
      }
      try {
        return await handle(res);
      } catch (err) {
        // The body broke off mid-way (connection reset, timeout): retry, a download resumes.
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

  const noHeaders = async () => ({});
  const getBytes = (path: string) => send(path, noHeaders, async (res) => Buffer.from(await res.body.arrayBuffer()));

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
      let from = 0;
      return send(path, async (): Promise<Record<string, string>> => {
        from = await sizeNow();
        return from > 0 && from < expected.size ? { range: `bytes=${from}-`, 'if-range': expected.etag } : {};
      }, async (res) => {
        // 206: the rest of the same file; 200: the whole file (no part yet, or If-Range said it changed).
        const append = res.statusCode === 206 && String(res.headers['content-range'] ?? '').startsWith(`bytes ${from}-`);
        if (res.statusCode === 206 && !append) {
          await res.body.dump();
          await rm(dest, { force: true });
          throw new Error('the server sent a different range than asked');
        }
        // Each chunk is written before the next is read (not a buffered stream), so the bytes that
        // arrived before a broken connection are on disk for the next attempt to resume from.
        const out = await open(dest, append ? 'a' : 'w');
        try {
          for await (const chunk of res.body) await out.write(chunk as Buffer);
        } finally {
          await out.close();
        }
        return sizeNow();
      });
    },
    close: () => agent.close(),
    gate,
  };
}
