/**
 * The mirror client's downloads against a server that closes every connection (issue 21: the same
 * undici crash as the HTTP catalog source's). A body written through a stream that pushes back
 * pauses undici's parser, and a paused parser meeting the server's FIN kills the process; the
 * client writes each chunk inside undici's data callback instead, so it never asks for a pause.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { generateCatalog } from '../../compiler/generate/index.js';
import { createMirrorClient } from '../../mirror/client.js';
import { makeTempDir, removeTempDirs } from '../compiler/source/catalog-fixture.js';
import { serveFolder } from '../compiler/source/http-server.js';
import { pauseCountingAgent } from '../helpers/pause-counting-agent.js';

afterAll(removeTempDirs);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('mirror client downloads', () => {
  it('when files of several MiB come from a server that closes each connection then undici is never asked to pause and the files are whole', async () => {
    const dir = makeTempDir('mirror-download-');
    await generateCatalog({ out: dir, cards: 1500, seed: 2, asOf: '2026-11-20' });
    const server = await serveFolder(dir, undefined, { connectionClose: true });
    cleanups.push(() => server.close());
    const { agent, pauses } = pauseCountingAgent();
    cleanups.push(() => agent.close());
    const client = createMirrorClient({ baseUrl: server.base, key: 'rxk_test', dispatcher: agent });
    const out = makeTempDir('mirror-download-out-');
    const files = ['prices.ndjson', 'fx-rates.ndjson', 'cards.ndjson', 'binders.ndjson'];
    for (let round = 0; round < 3; round++) {
      await Promise.all(files.map(async (f) => {
        const size = fs.statSync(path.join(dir, f)).size;
        const dest = path.join(out, `${round}-${f}`);
        expect(await client.download(`/${f}`, dest, { etag: '"x"', size })).toBe(size);
        expect(fs.readFileSync(dest).equals(fs.readFileSync(path.join(dir, f))), f).toBe(true);
      }));
    }
    expect(fs.statSync(path.join(dir, 'prices.ndjson')).size).toBeGreaterThan(3 * 1024 * 1024);
    expect(pauses()).toBe(0);
    await client.close();
  });

  it('when a part of the file is on disk and the server ignores Range (200, the whole file) then the part is replaced, not appended to', async () => {
    const dir = makeTempDir('mirror-resume-');
    await generateCatalog({ out: dir, cards: 300, seed: 2, asOf: '2026-11-20' });
    const server = await serveFolder(dir, undefined, { connectionClose: true });
    cleanups.push(() => server.close());
    const whole = fs.readFileSync(path.join(dir, 'cards.ndjson'));
    const dest = path.join(makeTempDir('mirror-resume-out-'), 'cards.ndjson');
    fs.writeFileSync(dest, whole.subarray(0, 1000));
    const client = createMirrorClient({ baseUrl: server.base, key: 'rxk_test' });
    expect(await client.download('/cards.ndjson', dest, { etag: '"x"', size: whole.length })).toBe(whole.length);
    expect(fs.readFileSync(dest).equals(whole)).toBe(true);
    await client.close();
  });
});
