/**
 * A real HTTP server on port 0 that serves a catalog folder under /export/, with hooks to
 * misbehave on chosen requests (the way undici's own tests use http.createServer).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';

export interface RequestInfo {
  file: string;
  /** 1 for the first request of this file, 2 for the second... */
  attempt: number;
}

/** Answer the request yourself and return true, or return false to serve the file normally. */
export type Misbehave = (info: RequestInfo, req: http.IncomingMessage, res: http.ServerResponse) => boolean | Promise<boolean>;

export interface ServeOptions {
  gzip?: boolean;
  /** Waits this long before answering each request. */
  delayMs?: number;
  /**
   * Answers `Connection: close`, so the server ends the connection right after each body, as
   * HTTP/1.0 servers such as `python3 -m http.server` do: the last bytes and the FIN arrive together.
   */
  connectionClose?: boolean;
  /** A slow server: the body goes out in pieces of `bytes`, `ms` apart. */
  drip?: { bytes: number; ms: number };
}

export interface TestServer {
  base: string;
  requests: Map<string, number>;
  maxInFlight: number;
  /** Connections the server accepted (with keep-alive, fewer than requests). */
  connections: number;
  close(): Promise<void>;
}

export async function serveFolder(dir: string, misbehave: Misbehave = () => false, options: ServeOptions = {}): Promise<TestServer> {
  const requests = new Map<string, number>();
  let inFlight = 0;
  const state = { maxInFlight: 0, connections: 0 };
  const server = http.createServer(async (req, res) => {
    inFlight += 1;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    res.on('close', () => {
      inFlight -= 1;
    });
    if (options.connectionClose) res.setHeader('connection', 'close');
    const url = new URL(req.url ?? '/', 'http://x');
    const file = url.pathname.replace(/^\/export\//, '');
    const attempt = (requests.get(file) ?? 0) + 1;
    requests.set(file, attempt);
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
    if (await misbehave({ file, attempt }, req, res)) return;
    const local = path.join(dir, file);
    if (!url.pathname.startsWith('/export/') || file.includes('/') || !fs.existsSync(local)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const plain = fs.readFileSync(local);
    const body = options.gzip ? zlib.gzipSync(plain) : plain;
    // gzip goes chunked (no Content-Length), as servers that compress on the fly send it.
    res.writeHead(200, {
      'content-type': 'application/x-ndjson',
      ...(options.gzip ? { 'content-encoding': 'gzip' } : { 'content-length': body.length }),
    });
    if (options.drip === undefined) res.end(body);
    else drip(res, body, options.drip);
  });
  server.on('connection', () => {
    state.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}/export/`,
    requests,
    get maxInFlight() {
      return state.maxInFlight;
    },
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function drip(res: http.ServerResponse, body: Buffer, pace: { bytes: number; ms: number }, at = 0): void {
  if (res.destroyed) return;
  const end = Math.min(body.length, at + pace.bytes);
  if (end === body.length) {
    res.end(body.subarray(at));
    return;
  }
  res.write(body.subarray(at, end));
  setTimeout(() => drip(res, body, pace, end), pace.ms);
}

/** Sends the headers and half of the body, then drops the connection. */
export function cutMidBody(dir: string, file: string, res: http.ServerResponse): void {
  const body = fs.readFileSync(path.join(dir, file));
  res.writeHead(200, { 'content-type': 'application/x-ndjson', 'content-length': body.length });
  res.write(body.subarray(0, Math.floor(body.length / 2)), () => {
    setTimeout(() => res.socket?.destroy(), 20);
  });
}

/** Like cutMidBody, for a chunked body (no Content-Length): the cut is only seen as a missing last chunk. */
export function cutMidChunkedBody(dir: string, file: string, res: http.ServerResponse): void {
  const body = fs.readFileSync(path.join(dir, file));
  res.writeHead(200, { 'content-type': 'application/x-ndjson', 'transfer-encoding': 'chunked' });
  res.write(body.subarray(0, Math.floor(body.length / 2)), () => {
    setTimeout(() => res.socket?.destroy(), 20);
  });
}
