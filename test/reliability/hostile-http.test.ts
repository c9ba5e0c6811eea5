/**
 * Hostile input on a real server (issue 6): what only raw sockets can send (invalid UTF-8 and NUL
 * bytes in the target, thousands of headers, an oversize Authorization, bytes that are not HTTP,
 * request smuggling shapes), a smaller fast-check run of raw requests, and slow clients (slowloris
 * headers, a trickled body) that are cut off with a 408 while other clients keep being answered.
 */
import fc from 'fast-check';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyStore } from '../../proxy/keys/store.js';
import { startServer, type RunningServer } from '../../proxy/server/main.js';
import { openStateDb } from '../../proxy/state/open.js';
import { INTERNAL_KEY, tempDir } from '../helpers/auth-fixtures.js';
import { compiledCatalog, type CompiledCatalog } from '../helpers/compiled-catalog.js';
import { problemWith, type Answer } from '../helpers/documented-answer.js';
import { hostileRequest, type HostileRequest } from '../helpers/hostile-requests.js';
import { rawRequest, slowClient, type RawAnswer } from '../helpers/raw-http.js';

const HEADERS_MS = 600;
const REQUEST_MS = 1200;

let catalog: CompiledCatalog;
let server: RunningServer;
let key: string;
let keyId: string;
let stateFile: string;
let cleanup: () => void;

beforeAll(async () => {
  catalog = await compiledCatalog();
  const tmp = tempDir('catalog-hostile-');
  cleanup = tmp.cleanup;
  stateFile = join(tmp.dir, 'state.sqlite');
  const state = openStateDb(stateFile);
  ({ key, keyId } = createKeyStore(state).mint({ tenant: 'acme', tier: 'enterprise' }));
  state.close();
  server = await startServer({
    snapshots: catalog.root, state: stateFile, host: '127.0.0.1', port: 0, workers: 1, handleSignals: false, log: () => undefined,
    env: { CATALOG_INTERNAL_KEY: INTERNAL_KEY, CATALOG_TIER_LIMITS: 'enterprise=10000000' },
    timeouts: { headersMs: HEADERS_MS, requestMs: REQUEST_MS, checkMs: 100 },
  });
});
afterAll(async () => {
  await server?.stop();
  cleanup?.();
});

const CRLF = '\r\n';
const request = (target: Buffer | string, headerLines: string[] = ['Authorization: Bearer $KEY']) => Buffer.concat([
  Buffer.from('GET ', 'latin1'),
  typeof target === 'string' ? Buffer.from(target, 'latin1') : target,
  Buffer.from(` HTTP/1.1${CRLF}Host: test${CRLF}${headerLines.map((l) => l.replace('$KEY', key)).join(CRLF)}${headerLines.length ? CRLF : ''}Connection: close${CRLF}${CRLF}`, 'latin1'),
]);

function expectDocumented(answer: RawAnswer, method = 'GET'): void {
  expect(problemWith({ status: answer.status, headers: answer.headers, body: answer.body, method })).toBeNull();
}

async function expectServerAlive(): Promise<void> {
  const res = await fetch(`${server.url}/v1/catalog/summary`, { headers: { Authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

describe('raw requests no client library would send', () => {
  const cases: [string, () => Buffer, number][] = [
    ['invalid UTF-8 bytes in the target', () => request(Buffer.from([0x2f, 0x76, 0x31, 0x2f, 0x63, 0x61, 0x72, 0x64, 0x73, 0x2f, 0xc3, 0x28, 0xff])), 400],
    ['a raw NUL in the target', () => request(Buffer.from('/v1/cards/a\u0000b', 'latin1')), 400],
    ['a backslash in the path (refused by the node adapter before the app)', () => request('/v1/\\'), 400],
    ['a backslash in a card id', () => request('/v1/cards/a\\b'), 400],
    ['an encoded NUL in the target', () => request('/v1/cards/a%00b'), 400],
    ['overlong UTF-8 dots in the target', () => request('/v1/cards/%C0%AE%C0%AE/%C0%AE%C0%AE/etc/passwd'), 404],
    ['an overlong UTF-8 dot-dot as the id', () => request('/v1/cards/%C0%AE%C0%AE'), 400],
    ['invalid UTF-8 bytes in a header value', () => request('/v1/catalog/summary', [`Authorization: Bearer $KEY`, 'X-Junk: \u00ff\u00fe\u00c3(']), 200],
    ['1,500 headers (within the 16 KiB limit)', () => request('/v1/catalog/summary', [`Authorization: Bearer $KEY`, ...Array.from({ length: 1500 }, (_, i) => `a${i}: b`)]), 200],
    ['3,000 headers (past the 16 KiB limit)', () => request('/v1/catalog/summary', [`Authorization: Bearer $KEY`, ...Array.from({ length: 3000 }, (_, i) => `x-h${i}: ${i}`)]), 431],
    ['an 8 KB Authorization', () => request('/v1/catalog/summary', [`Authorization: Bearer rxk_${'A'.repeat(8000)}`]), 401],
    ['a 20 KB Authorization', () => request('/v1/catalog/summary', [`Authorization: Bearer rxk_${'A'.repeat(20_000)}`]), 431],
    ['two Authorization headers', () => request('/v1/catalog/summary', [`Authorization: Bearer $KEY`, 'Authorization: Bearer rxk_x']), 401],
    ['Content-Length and Transfer-Encoding together (smuggling)', () => request('/v1/catalog/summary', ['Authorization: Bearer $KEY', 'Content-Length: 5', 'Transfer-Encoding: chunked']), 400],
    ['an absolute-form target naming another host', () => request('http://evil.example/v1/catalog/summary'), 200],
  ];
  for (const [what, bytes, status] of cases) {
    it(`when a request has ${what} then the answer is a documented ${status}`, async () => {
      const answer = await rawRequest(server.url, bytes());
      expect(answer.status, answer.body.toString()).toBe(status);
      expectDocumented(answer);
    });
  }

  it('when the bytes are not HTTP at all then a JSON 400 and the connection is closed', async () => {
    for (const junk of ['HELLO WORLD\r\n\r\n', 'G@T / HTTP/1.1\r\n\r\n', 'GET / HTTP/9.9\r\n\r\n', '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003\r\n\r\n']) {
      const answer = await rawRequest(server.url, junk);
      expect(answer.status).toBe(400);
      expect(answer.closed).toBe(true);
      expectDocumented(answer);
    }
    await expectServerAlive();
  });

  it('when random bytes fill the target and the headers (fast-check, 150 runs) then every answer is documented and the server stays up', async () => {
    const line = fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => Buffer.from(b.map((x) => (x === 0x0d || x === 0x0a ? 0x20 : x))));
    await fc.assert(
      fc.asyncProperty(line, fc.array(line, { maxLength: 4 }), async (target, headerBytes) => {
        const bytes = Buffer.concat([
          Buffer.from('GET /v1/', 'latin1'), target, Buffer.from(` HTTP/1.1${CRLF}Host: t${CRLF}Authorization: Bearer ${key}${CRLF}`, 'latin1'),
          ...headerBytes.map((h) => Buffer.concat([Buffer.from('X-F: ', 'latin1'), h, Buffer.from(CRLF)])),
          Buffer.from(`Connection: close${CRLF}${CRLF}`, 'latin1'),
        ]);
        const answer = await rawRequest(server.url, bytes, REQUEST_MS + 3000);
        const problem = problemWith({ status: answer.status, headers: answer.headers, body: answer.body, method: 'GET' });
        if (problem !== null) throw new Error(problem);
      }),
      { numRuns: 150 },
    );
    await expectServerAlive();
  }, 60_000);
});

/**
 * One request through node:http, as a client library sends it. Resolves null when node:http itself
 * refuses to send it (a target or header value with characters no client may send): the raw cases
 * above cover those bytes.
 */
function clientRequest(r: HostileRequest): Promise<Answer | null> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    let req;
    try {
      req = httpRequest({ host: hostname, port: Number(port), method: r.method, path: r.target, headers: { ...r.headers, connection: 'close' }, agent: false });
    } catch {
      resolve(null);
      return;
    }
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers[name] = value;
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks), method: r.method });
      });
    });
    req.end(r.body ?? undefined);
  });
}

describe('the app fuzzer over a real socket', () => {
  it('when a HEAD request has a 20 KB Authorization then the 431 comes with its headers and no body (a body after a HEAD answer breaks the client)', async () => {
    const answer = await clientRequest({ method: 'HEAD', target: '/v1/catalog/summary', headers: { authorization: `Bearer rxk_${'A'.repeat(20_000)}` }, body: null });
    expect(answer!.status).toBe(431);
    expect(answer!.body.length).toBe(0);
    expect(problemWith(answer!)).toBeNull();
  });

  // fuzz-app.test.ts sends these through app.request(); here they also pass @hono/node-server's
  // translation of a node request into a fetch Request, which refuses some targets by itself
  // (a backslash in the path was answered with a bare 400 before main.ts handled it).
  it('when the hostile requests of the app fuzzer arrive over HTTP (fast-check, 400 runs) then every answer is documented and the server stays up', async () => {
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(hostileRequest({ catalog, keys: [key], keyIds: [keyId] }), async (r) => {
        const answer = await clientRequest(r);
        if (answer === null) return;
        sent++;
        const problem = problemWith(answer);
        if (problem !== null) throw new Error(`${r.method} ${r.target}: ${problem}`);
      }),
      { numRuns: 400 },
    );
    expect(sent).toBeGreaterThan(300);
    await expectServerAlive();
  }, 60_000);
});

describe('slow clients', () => {
  it('when 30 clients send their headers two bytes at a time then each is cut off with a JSON 408 while 30 normal requests are answered meanwhile', async () => {
    const slow = Array.from({ length: 30 }, () => slowClient(server.url, `GET /v1/catalog/summary HTTP/1.1${CRLF}Host: t${CRLF}Authorization: Bearer ${key}${CRLF}X-Pad: ${'p'.repeat(400)}${CRLF}${CRLF}`, 50));
    const normal = await Promise.all(Array.from({ length: 30 }, async () => {
      const res = await fetch(`${server.url}/v1/catalog/summary`, { headers: { Authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      return res.status;
    }));
    expect(normal.every((s) => s === 200)).toBe(true);
    const ended = await Promise.all(slow.map((s) => s.done));
    for (const { answer } of ended) {
      expect(answer?.status).toBe(408);
      expectDocumented(answer!);
    }
    // Cut off after the headers timeout, long before they could have finished (~11 s at this pace).
    const longest = Math.max(...ended.map((e) => e.afterMs));
    expect(longest).toBeLessThan(5_000);
    console.info(`slowloris: 30 slow clients cut off after ${Math.round(Math.min(...ended.map((e) => e.afterMs)))}-${Math.round(longest)} ms (headers timeout ${HEADERS_MS} ms)`);
    await expectServerAlive();
  });

  it('when a client trickles its request body then it is cut off with a 408 after the request timeout and nothing is done with it', async () => {
    const body = JSON.stringify({ tenant: 'slowpoke', tier: 'free' }).padEnd(400, ' ');
    const head = `POST /v1/admin/b2b-keys HTTP/1.1${CRLF}Host: t${CRLF}X-Service-Internal-Key: ${INTERNAL_KEY}${CRLF}Content-Type: application/json${CRLF}Content-Length: ${body.length}${CRLF}${CRLF}`;
    const client = slowClient(server.url, head + body, 5);
    const { answer } = await client.done;
    expect(answer?.status).toBe(408);
    expectDocumented(answer!, 'POST');
    const state = openStateDb(stateFile);
    expect(createKeyStore(state).list({ tenant: 'slowpoke' })).toEqual([]);
    state.close();
    await expectServerAlive();
  });
});
