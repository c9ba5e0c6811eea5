/**
 * One GET whose body is written to a local file while it arrives: each chunk is written
 * (fs.writeSync) inside undici's data callback, before undici parses the next one, and the handler
 * never pauses undici. Memory holds one chunk; a disk slower than the network slows the reading of
 * the socket (the event loop is busy writing), which is back-pressure enough.
 *
 * Why not `request()` with its body piped into a file stream: that body stream pushes back on
 * undici whenever it holds more than its highWaterMark (a file stream is slower than a loopback
 * socket), and undici 7 then pauses its HTTP/1 parser. When a server closes the connection right
 * after the body (`Connection: close`: HTTP/1.0 servers such as `python3 -m http.server`, nginx with
 * keepalive_timeout 0), the last bytes and the FIN can arrive while the parser is paused; the
 * socket's 'end' handler then calls Parser.finish(), which asserts `!this.paused` and throws from an
 * event handler, where nothing can catch it: the process dies (issue 21; nodejs/undici#5360, fixed
 * in undici 8 by nodejs/undici#5474, and undici 8 needs Node 22). A parser that is never paused
 * cannot meet that assertion. The HTTP catalog source (compiler/source/http-download.ts) and the
 * partner mirror's downloads (mirror/client.ts) both fetch files through it.
 *
 * @example
 *   const res = await getToFile(url, { dispatcher, signal, timeoutMs: 30_000, headers: {}, fileFor: (s) => (s === 200 ? '/tmp/x' : null) });
 *   // res.statusCode === 200: /tmp/x holds the whole body
 */
import fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';

export interface GetToFileOptions {
  dispatcher: Dispatcher;
  /** Aborts the request. */
  signal: AbortSignal;
  /** Longest wait for the response headers, and between two chunks of the body. */
  timeoutMs: number;
  headers: Record<string, string>;
  /**
   * Called once the final status and headers are in: the file that receives the body (a path:
   * created or truncated; `{ path, append: true }`: appended to, for a resumed download), or null
   * to keep the body in memory instead (an error page, up to KEPT_BODY_BYTES). A throw refuses the
   * answer: the request is aborted and fails with that error.
   */
  fileFor(statusCode: number, headers: IncomingHttpHeaders): string | { path: string; append: boolean } | null;
}

export interface GotAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  /** The body when `fileFor` gave no file (its first KEPT_BODY_BYTES), else empty. */
  body: Buffer;
}

/** Enough of an error body for its message; the rest is read and dropped. */
export const KEPT_BODY_BYTES = 64 * 1024;

/** Resolves once the whole body is in its file (and the file is closed); rejects on any failure. */
export function getToFile(url: URL, o: GetToFileOptions): Promise<GotAnswer> {
  return new Promise((resolve, reject) => {
    if (o.signal.aborted) {
      reject(o.signal.reason);
      return;
    }
    let controller: Dispatcher.DispatchController | null = null;
    let answer: GotAnswer | null = null;
    let fd: number | null = null;
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let settled = false;

    const onAbort = (): void => controller?.abort(o.signal.reason as Error);
    o.signal.addEventListener('abort', onAbort, { once: true });

    const settle = (error: unknown): void => {
      if (settled) return;
      settled = true;
      o.signal.removeEventListener('abort', onAbort);
      if (fd !== null) {
        try {
          fs.closeSync(fd);
        } catch (closeError) {
          error ??= closeError;
        }
        fd = null;
      }
      if (error != null) reject(error);
      else if (answer === null) reject(new Error(`GET ${url.pathname}: the response ended without a status`));
      else resolve({ ...answer, body: Buffer.concat(kept, keptBytes) });
    };

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        // Aborted while the request waited for a connection.
        if (o.signal.aborted) c.abort(o.signal.reason as Error);
      },
      onResponseStart(c, statusCode, headers) {
        // 1xx informational answers: the real one follows.
        if (statusCode < 200) return;
        answer = { statusCode, headers, body: Buffer.alloc(0) };
        try {
          const file = o.fileFor(statusCode, headers);
          if (typeof file === 'string') fd = fs.openSync(file, 'w');
          else if (file !== null) fd = fs.openSync(file.path, file.append ? 'a' : 'w');
        } catch (err) {
          c.abort(err as Error);
        }
      },
      onResponseData(c, chunk) {
        if (fd === null) {
          if (keptBytes < KEPT_BODY_BYTES) {
            const part = chunk.subarray(0, KEPT_BODY_BYTES - keptBytes);
            kept.push(Buffer.from(part));
            keptBytes += part.length;
          }
          return;
        }
        try {
          for (let at = 0; at < chunk.length; ) at += fs.writeSync(fd, chunk, at);
        } catch (err) {
          c.abort(err as Error);
        }
      },
      onResponseEnd() {
        settle(null);
      },
      onResponseError(_c, err) {
        settle(err);
      },
    };

    try {
      o.dispatcher.dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'GET',
          headers: o.headers,
          headersTimeout: o.timeoutMs,
          bodyTimeout: o.timeoutMs,
        },
        handler,
      );
    } catch (err) {
      settle(err);
    }
  });
}
