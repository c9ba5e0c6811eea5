/**
 * downloadFile on its own: how the body reaches the disk (issue 21: never by pausing undici) and
 * what a local failure or a refused answer becomes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Agent, type Dispatcher } from 'undici';
import { CatalogError } from '../../../snapshots/errors.js';
import { downloadFile, type DownloadPolicy } from '../../../compiler/source/http-download.js';
import { generateCatalog } from '../../../compiler/generate/index.js';
import { makeTempDir, removeTempDirs, writeCatalog } from './catalog-fixture.js';
import { serveFolder, type Misbehave, type ServeOptions, type TestServer } from './http-server.js';
import { pauseCountingAgent } from '../../helpers/pause-counting-agent.js';

afterAll(removeTempDirs);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(dir: string, misbehave?: Misbehave, options?: ServeOptions): Promise<TestServer> {
  const server = await serveFolder(dir, misbehave, options);
  cleanups.push(() => server.close());
  return server;
}

function policy(dispatcher: Dispatcher, extra: Partial<DownloadPolicy> = {}): DownloadPolicy {
  return { dispatcher, retries: 2, fetchTimeoutMs: 2_000, retryBaseMs: 5, signal: new AbortController().signal, ...extra };
}

describe('downloadFile', () => {
  it('when bodies of several MiB arrive faster than a disk takes them then undici is never asked to pause, and the files are whole', async () => {
    const dir = makeTempDir('download-large-');
    await generateCatalog({ out: dir, cards: 1500, seed: 2, asOf: '2026-11-20' });
    const server = await serve(dir, undefined, { connectionClose: true });
    const { agent, pauses } = pauseCountingAgent();
    cleanups.push(() => agent.close());
    const out = makeTempDir('download-out-');
    const files = ['prices.ndjson', 'fx-rates.ndjson', 'cards.ndjson', 'binders.ndjson'];
    for (let round = 0; round < 3; round++) {
      await Promise.all(files.map((f) => downloadFile(new URL(`${server.base}${f}`), path.join(out, f), policy(agent))));
      for (const f of files) expect(fs.readFileSync(path.join(out, f)).equals(fs.readFileSync(path.join(dir, f))), f).toBe(true);
    }
    expect(fs.statSync(path.join(dir, 'prices.ndjson')).size).toBeGreaterThan(3 * 1024 * 1024);
    expect(pauses()).toBe(0);
  });

  it('when the local file cannot be created then it fails with io, once, without retrying', async () => {
    const server = await serve(writeCatalog());
    const agent = new Agent();
    cleanups.push(() => agent.close());
    const err = await downloadFile(new URL(`${server.base}cards.ndjson`), path.join(makeTempDir(), 'missing', 'cards.ndjson'), policy(agent)).catch((e) => e);
    expect(err).toBeInstanceOf(CatalogError);
    expect(err.code).toBe('io');
    expect(err.message).toMatch(/^cannot store http:.*cards\.ndjson locally: ENOENT/);
    expect(server.requests.get('cards.ndjson')).toBe(1);
  });

  it('when the server answers an unsupported Content-Encoding then it fails at once and stores nothing', async () => {
    const server = await serve(writeCatalog(), ({ file }, _req, res) => {
      res.writeHead(200, { 'content-encoding': 'zstd' }).end(`not really ${file}`);
      return true;
    });
    const agent = new Agent();
    cleanups.push(() => agent.close());
    const out = makeTempDir();
    const err = await downloadFile(new URL(`${server.base}cards.ndjson`), path.join(out, 'cards.ndjson'), policy(agent)).catch((e) => e);
    expect(err).toBeInstanceOf(CatalogError);
    expect(err.message).toBe(`GET ${server.base}cards.ndjson answered with an unsupported Content-Encoding zstd`);
    expect(fs.readdirSync(out)).toEqual([]);
  });

  it('when the gzip body is complete then the file holds the decoded bytes and the encoded copy is gone', async () => {
    const dir = writeCatalog();
    const server = await serve(dir, undefined, { gzip: true, connectionClose: true });
    const agent = new Agent();
    cleanups.push(() => agent.close());
    const out = makeTempDir();
    expect(await downloadFile(new URL(`${server.base}cards.ndjson`), path.join(out, 'cards.ndjson'), policy(agent))).toBe(true);
    expect(fs.readFileSync(path.join(out, 'cards.ndjson'), 'utf8')).toBe(fs.readFileSync(path.join(dir, 'cards.ndjson'), 'utf8'));
    expect(fs.readdirSync(out)).toEqual(['cards.ndjson']);
  });
});
