/**
 * The admin port (`catalog serve --admin-port`): `GET /metrics` in the Prometheus text format, on a
 * listener of its own so the partner port never exposes it (there, `/metrics` is outside `/v1` and
 * 404 like any other unknown path).
 *
 * Bound to a loopback address it answers anyone who can reach it (that is, processes on the host: a
 * node exporter, a local Prometheus or agent). Bound to any other address it requires the internal
 * key, as `X-Service-Internal-Key: <key>` or `Authorization: Bearer <key>` (what Prometheus'
 * `authorization` scrape setting sends), and it refuses to start when no internal key is set.
 * Plain node:http rather than Hono: one route, no gate, no audit.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CatalogError } from '../../snapshots/errors.js';
import { INTERNAL_KEY_HEADER } from '../gate/internal.js';
import { listen, urlOf } from '../http/listen.js';
import { secretsEqual } from '../keys/hash.js';
import { METRICS_CONTENT_TYPE } from './render-metrics.js';

export const DEFAULT_ADMIN_HOST = '127.0.0.1';
export const METRICS_PATH = '/metrics';

export interface AdminServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** CATALOG_INTERNAL_KEY; required when `host` is not a loopback address. */
  internalKey: string | null;
  /** The Prometheus text of a scrape. */
  collect(): Promise<string>;
  /** A scrape that failed (answered 500); the message only, never a stack. */
  onError(err: unknown): void;
}

export interface AdminServer {
  /** `http://host:port` as bound. */
  url: string;
  close(): void;
}

export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || /^::ffff:127\./.test(h);
}

function presentedKey(req: IncomingMessage): string | undefined {
  const internal = req.headers[INTERNAL_KEY_HEADER.toLowerCase()];
  if (typeof internal === 'string' && internal !== '') return internal;
  const auth = req.headers.authorization;
  const m = auth === undefined ? null : /^Bearer +(\S+) *$/i.exec(auth);
  return m ? m[1] : undefined;
}

function plain(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(text), ...extra });
  res.end(text);
}

export async function startAdminServer(options: AdminServerOptions): Promise<AdminServer> {
  const loopback = isLoopbackHost(options.host);
  if (!loopback && options.internalKey === null) {
    throw new CatalogError('usage', `--admin-host ${options.host} is not a loopback address: set CATALOG_INTERNAL_KEY, which /metrics then requires, or bind it to 127.0.0.1`, { option: 'admin-host' });
  }
  const requiredKey = loopback ? null : options.internalKey;

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path !== METRICS_PATH) return plain(res, 404, 'not found: the admin port serves GET /metrics only\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'method not allowed\n', { Allow: 'GET, HEAD' });
    if (requiredKey !== null) {
      const key = presentedKey(req);
      if (key === undefined || !secretsEqual(key, requiredKey)) {
        return plain(res, 401, 'the internal key is required (X-Service-Internal-Key or Authorization: Bearer)\n', { 'WWW-Authenticate': 'Bearer realm="metrics"' });
      }
    }
    options.collect().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': METRICS_CONTENT_TYPE, 'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(text) });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        options.onError(err);
        plain(res, 500, 'collecting the metrics failed; see the server log\n');
      },
    );
  });
  await listen(server, options.host, options.port);
  return {
    url: urlOf(options.host, (server.address() as AddressInfo).port),
    close() {
      server.close();
      server.closeAllConnections();
    },
  };
}
