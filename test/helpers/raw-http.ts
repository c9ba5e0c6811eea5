/**
 * Raw HTTP/1.1 over a TCP socket, for requests no HTTP client would send (invalid UTF-8 bytes in the
 * target, a NUL, thousands of headers, bytes that are not HTTP) and for clients that are slow on
 * purpose. Parses one response: status line, headers, and a Content-Length body.
 */
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** True when the server closed the connection (after or instead of answering). */
  closed: boolean;
}

export function parseRawResponse(bytes: Buffer, closed: boolean): RawAnswer | null {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const lines = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.1 (\d{3})/.exec(lines[0]);
  if (!m) return null;
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const body = bytes.subarray(end + 4, end + 4 + length);
  if (body.length < length) return null;
  return { status: Number(m[1]), headers, body, closed };
}

/** Sends `request` (bytes or string, sent as latin1) and resolves with the first response. */
export function rawRequest(url: string, request: Buffer | string, timeoutMs = 10_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to ${JSON.stringify(request.toString().slice(0, 80))}`));
    }, timeoutMs);
    const finish = (closed: boolean) => {
      const parsed = parseRawResponse(received, closed);
      if (parsed === null && !closed) return;
      // An answer that announces `Connection: close` is complete once the server has closed.
      if (parsed !== null && !closed && parsed.headers.connection === 'close') return;
      clearTimeout(timer);
      socket.destroy();
      if (parsed === null) reject(new Error(`connection closed without a complete answer: ${received.toString('latin1').slice(0, 200)}`));
      else resolve(parsed);
    };
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      finish(false);
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => undefined);
    socket.write(typeof request === 'string' ? Buffer.from(request, 'latin1') : request);
  });
}

/**
 * A slowloris client: sends the request a few bytes at a time, `intervalMs` apart, forever, and
 * records when the server answered and closed.
 */
export function slowClient(url: string, request: string, intervalMs: number): { socket: Socket; done: Promise<{ answer: RawAnswer | null; afterMs: number }> } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const started = performance.now();
  let received = Buffer.alloc(0);
  let offset = 0;
  const drip = setInterval(() => {
    if (offset < request.length && socket.writable) socket.write(request.slice(offset, (offset += 2)), 'latin1');
  }, intervalMs);
  socket.on('data', (chunk) => (received = Buffer.concat([received, chunk])));
  socket.on('error', () => undefined);
  const done = new Promise<{ answer: RawAnswer | null; afterMs: number }>((resolve) => {
    socket.on('close', () => {
      clearInterval(drip);
      resolve({ answer: parseRawResponse(received, true), afterMs: performance.now() - started });
    });
  });
  return { socket, done };
}
