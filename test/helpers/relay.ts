/**
 * A relay on loopback in front of a real server, for tests of how a client lives with a bad network
 * or a bad origin: every request is logged and forwarded; `shape` may answer it itself, or take over
 * the origin's answer (cut it, alter it) instead of piping it through.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Relay {
  url: string;
  close(): Promise<void>;
}

export interface RelayShape {
  /** Answer without asking the origin (true when it did). */
  before?(req: IncomingMessage, res: ServerResponse): boolean;
  /** Send the origin's answer some other way (true when it did); headers are already written. */
  after?(req: IncomingMessage, upRes: IncomingMessage, res: ServerResponse): boolean;
}

export async function startRelay(target: string, shape: RelayShape): Promise<Relay> {
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    if (shape.before?.(req, res)) return;
    const up = httpRequest({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      if (!shape.after?.(req, upRes, res)) upRes.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Sends half of the origin's body, then breaks the connection once that half has left (so the client really holds it). */
export function sendHalfThenBreak(upRes: IncomingMessage, res: ServerResponse): void {
  const half = Math.floor(Number(upRes.headers['content-length']) / 2);
  let sent = 0;
  upRes.on('data', (chunk: Buffer) => {
    if (sent >= half) return;
    const part = chunk.subarray(0, half - sent);
    sent += part.length;
    const last = sent >= half;
    if (last) upRes.destroy();
    res.write(part, () => {
      if (last) setTimeout(() => res.socket?.destroy(), 50);
    });
  });
}
