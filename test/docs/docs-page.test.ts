/**
 * The reference page (GET /docs) in a real browser: headless Chromium (scripts/servers/chromium.sh)
 * opens it on `catalog serve` over loopback, without a key, under the page's own
 * Content-Security-Policy. Every partner path of the document must be on the rendered page, with its
 * curl sample, and the console must show no error (a CSP violation is logged as one), and no request
 * may leave the server's origin. Saves the screenshot docs/partners.md shows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConsoleMessage } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';
import { serveExampleCatalog, type ServedCatalog } from '../helpers/catalog-server.js';
import { chromiumMissing, startChromium, type RunningChromium } from '../helpers/chromium.js';

const DOC = JSON.parse(readFileSync(join(REPO, 'docs', 'openapi.json'), 'utf8')) as { paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>> };
/** Every path of the document but the operator-only ones (the internal key's), which partners cannot call. */
const PARTNER_PATHS = Object.entries(DOC.paths)
  .filter(([, item]) => Object.values(item).some((op) => !(op.security ?? []).every((s) => Object.keys(s).join() === 'internalKey')))
  .map(([path]) => path);
const SCREENSHOT = join(REPO, 'docs', 'partners-docs-page.png');

let served: ServedCatalog;
let chromium: RunningChromium | { unavailable: string };

// One after the other, each assigned as soon as it runs, so afterAll stops whatever did start.
beforeAll(async () => {
  chromium = await startChromium();
  served = await serveExampleCatalog();
}, 180_000);
afterAll(async () => {
  if (chromium && 'browser' in chromium) await chromium.stop();
  await served?.stop();
});

describe('GET /docs in headless Chromium', () => {
  it('shows every partner path with a curl sample, loads nothing from elsewhere, and logs no error', async (ctx) => {
    if ('unavailable' in chromium) return chromiumMissing(ctx, chromium.unavailable, 'the reference page in a browser');
    const page = await chromium.browser.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() === 'error' || m.type() === 'warn') problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${String(e)}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
    page.on('request', (r) => requests.push(r.url()));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
    });
    const response = await page.goto(`${served.url}/docs`, { waitUntil: 'networkidle0' });
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toMatch(/^default-src 'none'; script-src 'self';/);
    // Redoc renders each operation's path in its right panel; wait until the last one is there.
    await page.waitForFunction((path: string) => document.body.innerText.includes(path), { timeout: 60_000 }, PARTNER_PATHS.at(-1)!);
    const text = await page.evaluate(() => document.body.innerText);
    expect(PARTNER_PATHS.filter((p) => !text.includes(p))).toEqual([]);
    // The curl samples (x-codeSamples) are rendered, with the key as a variable.
    expect(text).toContain('curl --compressed \\\n  -H "Authorization: Bearer $CATALOG_KEY" \\\n  "$CATALOG_URL/v1/cards/OP01-001?range=30d"');
    const origin = new URL(served.url).origin;
    expect(requests.filter((u) => !u.startsWith(origin) && !u.startsWith('blob:') && !u.startsWith('data:'))).toEqual([]);
    // The screenshot for docs/partners.md: the card route, with its parameters and curl sample.
    await page.evaluate(() => document.querySelector('[data-section-id$="operation/getCard"]')?.scrollIntoView());
    await page.screenshot({ path: SCREENSHOT });
    expect(problems).toEqual([]);
  }, 180_000);
});
