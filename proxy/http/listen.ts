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

export function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(new CatalogError('io', `cannot listen on ${urlOf(host, port)}: ${err.code ?? err.message}`, {}, { cause: err }));
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
