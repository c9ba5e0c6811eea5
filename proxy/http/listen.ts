/**
 * Binds a node:http server and reports a failure to bind as a CatalogError naming the address; used
 * for the API port and the admin port alike.
 */
import type { Server } from 'node:http';
import { CatalogError } from '../../snapshots/errors.js';

/** `http://host:port`, with an IPv6 host in brackets. */
export function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** What the operator can do about the usual bind failures. */
const BIND_ADVICE: Record<string, string> = {
  EADDRINUSE: 'the port is taken by another process; stop it or choose another port (0 = any free port)',
  EACCES: 'ports below 1024 need privileges; choose a port from 1024',
  EADDRNOTAVAIL: 'no network interface has that address; use 127.0.0.1, 0.0.0.0 or an address of this host',
};

export function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      const advice = err.code === undefined ? undefined : BIND_ADVICE[err.code];
      const reason = `${err.code ?? err.message}${advice === undefined ? '' : ` (${advice})`}`;
      reject(new CatalogError('io', `cannot listen on ${urlOf(host, port)}: ${reason}`, {}, { cause: err }));
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}
