/**
 * `catalog serve` (the real binary) on the example catalog (example-catalog.ts: the catalog the
 * OpenAPI examples come from, so every id the document's examples name exists), on a free loopback
 * port, with a minted key and the example public key: for the suites that drive the API from
 * outside the process (the typed client's tests, the reference page in a browser).
 */
import { createPublicKey } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleSigningKeys } from '../../proxy/openapi/example-signing-key.js';
import { tempDir } from './cli.js';
import { compileExampleCatalog, type CompiledCatalog } from './example-catalog.js';
import { runCli, startServerProcess, type ServerProcess } from './server-process.js';

export interface ServedCatalog {
  url: string;
  /** A partner key of tenant `client-tests`, tier enterprise (the suites call many routes fast). */
  key: string;
  keyId: string;
  catalog: CompiledCatalog;
  server: ServerProcess;
  stop(): Promise<void>;
}

export async function serveExampleCatalog(): Promise<ServedCatalog> {
  const catalog = await compileExampleCatalog();
  const dir = tempDir('catalog-served-');
  const state = join(dir, 'state.sqlite');
  const publicKey = join(dir, 'public-key.pem');
  writeFileSync(publicKey, createPublicKey(exampleSigningKeys().privateKey).export({ type: 'spki', format: 'pem' }) as string);
  const minted = runCli(['keys', 'mint', '--state', state, '--tenant', 'client-tests', '--tier', 'enterprise', '--json']);
  if (minted.status !== 0) throw new Error(`keys mint failed: ${minted.stderr}`);
  const { key, keyId } = JSON.parse(minted.stdout) as { key: string; keyId: string };
  const server = await startServerProcess(
    ['serve', '--snapshots', catalog.root, '--state', state, '--port', '0', '--workers', '1', '--public-key', publicKey],
    { detached: true },
  );
  return {
    url: server.url, key, keyId, catalog, server,
    async stop() {
      if (server.child.exitCode === null && server.child.signalCode === null) process.kill(-server.child.pid!, 'SIGTERM');
      await server.exited;
      catalog.cleanup();
    },
  };
}
