/**
 * What `startServer` is given and gives back, the client timeouts and limits every serving process
 * applies, and the check of the options, made once before anything listens.
 */
import { availableParallelism } from 'node:os';
import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CatalogError } from '../../snapshots/errors.js';
import { parseStoreLocation } from '../../snapshots/store/blob-store.js';
import type { ProxyLogger } from '../logger.js';
import { isPostgresUrl, stateLocation, type StateLocation } from '../state/state-location.js';

/** A client must have sent its request line and headers within this (slowloris), … */
export const HEADERS_TIMEOUT_MS = 10_000;
/** … and its whole request, body included, within this; past either it gets 408 and is closed. */
export const REQUEST_TIMEOUT_MS = 30_000;
/**
 * How often node:http looks for connections past those timeouts. Node's default is 30 s, which
 * would let a slow client hold a socket up to 40 s instead of 10; a sweep of the connection list
 * once a second costs nothing measurable.
 */
export const CONNECTIONS_CHECK_MS = 1_000;
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** Longest a SIGTERM waits for in-flight requests before closing their sockets. */
export const DRAIN_TIMEOUT_MS = 10_000;
const MAX_WORKERS = 256;

export interface ServerOptions {
  /** Snapshot root (holds the snapshots and the `current` pointer): a folder or `s3://bucket/prefix`. */
  snapshots: string;
  /**
   * For an s3:// root: the local folder its snapshots' manifest, object index and search index are
   * copied into (default: `snapshot-cache` beside the state file).
   */
  snapshotCache?: string;
  /** For an s3:// root: how often `current.json` is read, in ms (default 5 s; a folder's pointer is read every 250 ms). */
  snapshotPollMs?: number;
  /**
   * The state: a SQLite file (keys, rate counters, audit rows; created when absent), or a
   * postgres:// URL (the fleet state: keys and audit rows in PostgreSQL, with `redis`).
   */
  state: string;
  /** redis:// URL of the fleet state's counters and audit stream (default CATALOG_REDIS_URL of `env`); only with a postgres:// state. */
  redis?: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Worker processes; 1 serves in this process without node:cluster. */
  workers: number;
  /** Where the CATALOG_* settings are read from, once. */
  env: NodeJS.ProcessEnv;
  /** Byte budget of each process's object cache (default 64 MiB). */
  cacheBytes?: number;
  /** Ed25519 public key (PEM file) published at /v1/snapshot/public-key. */
  publicKeyFile?: string;
  /** Receives the start/stop lines (default: stderr). */
  log?: (line: string) => void;
  /** The app's logger: one line per request and request errors (default: errors only, JSON on stderr). */
  logger?: ProxyLogger;
  /**
   * Port of the admin listener serving GET /metrics (0 picks a free port); absent: no admin port and
   * no metrics kept. In a cluster the primary serves it and collects from the workers.
   */
  adminPort?: number;
  /** Address of the admin listener (default 127.0.0.1); a non-loopback one needs CATALOG_INTERNAL_KEY. */
  adminHost?: string;
  /** Install SIGTERM/SIGINT handlers (default true; tests that call stop() may turn it off). */
  handleSignals?: boolean;
  /** Client timeouts in ms (defaults HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); tests use short ones. */
  timeouts?: { headersMs?: number; requestMs?: number; checkMs?: number };
}

export interface RunningServer {
  /** `single`: one process; `primary`: the cluster parent; `worker`: a forked child (prints nothing). */
  role: 'single' | 'primary' | 'worker';
  /** `http://host:port` as bound (the real port when 0 was asked). */
  url: string;
  /** The admin listener's `http://host:port` (metrics at /metrics), or null when there is none. */
  adminUrl: string | null;
  /** Drains and stops (what SIGTERM does). */
  stop(): Promise<void>;
  /** Resolves once the server has stopped. */
  closed: Promise<void>;
}

export function defaultWorkers(): number {
  return availableParallelism();
}

export function checkOptions(o: ServerOptions): void {
  const usage = (message: string, option: string) => new CatalogError('usage', message, { option });
  if (!Number.isInteger(o.port) || o.port < 0 || o.port > 65535) throw usage(`--port must be 0-65535, got ${o.port}`, 'port');
  if (!Number.isInteger(o.workers) || o.workers < 1 || o.workers > MAX_WORKERS) {
    throw usage(`--workers must be a whole number from 1 to ${MAX_WORKERS}, got ${o.workers}`, 'workers');
  }
  if (o.host.length === 0) throw usage('--host must not be empty', 'host');
  if (o.adminPort !== undefined && (!Number.isInteger(o.adminPort) || o.adminPort < 0 || o.adminPort > 65535)) {
    throw usage(`--admin-port must be 0-65535, got ${o.adminPort}`, 'admin-port');
  }
  if (o.adminHost !== undefined && o.adminHost.length === 0) throw usage('--admin-host must not be empty', 'admin-host');
  if (o.snapshots.length === 0) throw usage('--snapshots must name the snapshot root', 'snapshots');
  // A root that does not exist yet is fine (503 until the first compile publishes); a file never becomes one.
  if (parseStoreLocation(o.snapshots, '--snapshots').kind === 'folder' && statSync(o.snapshots, { throwIfNoEntry: false })?.isFile()) {
    throw usage(`--snapshots ${o.snapshots} is a file, not a snapshot root folder`, 'snapshots');
  }
  if (o.snapshotPollMs !== undefined && (!Number.isInteger(o.snapshotPollMs) || o.snapshotPollMs < 1)) {
    throw usage(`the poll interval must be a whole number of ms >= 1, got ${o.snapshotPollMs}`, 'poll-seconds');
  }
  const location = stateLocationOf(o);
  if (location.kind === 'fleet' && o.snapshotCache === undefined && parseStoreLocation(o.snapshots, '--snapshots').kind === 's3') {
    throw usage('with a postgres:// state there is no state file to put the snapshot cache beside: give --snapshot-cache <dir>, a local folder of this host', 'snapshot-cache');
  }
  const t = o.timeouts ?? {};
  for (const [name, value] of Object.entries(t)) {
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) throw usage(`timeouts.${name} must be a whole number of ms >= 1, got ${value}`, `timeouts.${name}`);
  }
  if ((t.headersMs ?? HEADERS_TIMEOUT_MS) > (t.requestMs ?? REQUEST_TIMEOUT_MS)) throw usage('timeouts.headersMs must not exceed timeouts.requestMs', 'timeouts');
}

/** Where an s3:// root's snapshot files are copied: --snapshot-cache, else `snapshot-cache` beside the state file. */
export function snapshotCacheDir(o: ServerOptions): string {
  // A fleet state with an s3:// root must name it (checkOptions); with a folder root nothing is copied.
  return o.snapshotCache ?? (isPostgresUrl(o.state) ? resolve('snapshot-cache') : join(dirname(resolve(o.state)), 'snapshot-cache'));
}

/** The state these options name (a usage error for a postgres:// state without Redis). */
export function stateLocationOf(o: ServerOptions): StateLocation {
  return stateLocation({ state: o.state, redis: o.redis }, o.env);
}
