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

export interface TestServer {
  base: string;
  requests: Map<string, number>;
  maxInFlight: number;
  close(): Promise<void>;
}

export async function serveFolder(dir: string, misbehave: Misbehave = () => false, options: { gzip?: boolean; delayMs?: number } = {}): Promise<TestServer> {
  const requests = new Map<string, number>();
  let inFlight = 0;
  const state = { maxInFlight: 0 };
  const server = http.createServer(async (req, res) => {
    inFlight += 1;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    res.on('close', () => {
      inFlight -= 1;
    });
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
    const body = fs.readFileSync(local);
    if (options.gzip) {
      res.writeHead(200, { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' }).end(zlib.gzipSync(body));
    } else {
      res.writeHead(200, { 'content-type': 'application/x-ndjson', 'content-length': body.length }).end(body);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}/export/`,
    requests,
    get maxInFlight() {
      return state.maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends the headers and half of the body, then drops the connection. */
export function cutMidBody(dir: string, file: string, res: http.ServerResponse): void {
  const body = fs.readFileSync(path.join(dir, file));
  res.writeHead(200, { 'content-type': 'application/x-ndjson', 'content-length': body.length });
  res.write(body.subarray(0, Math.floor(body.length / 2)), () => {
    setTimeout(() => res.socket?.destroy(), 20);
  });
}
