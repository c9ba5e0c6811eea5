/**
 * GET /docs: the API reference partners read in a browser, rendered by Redoc's standalone bundle
 * (the npm package `redoc`, served by the proxy itself from GET /docs/redoc.standalone.js) from the
 * document GET /openapi.json serves. No CDN and nothing from another origin: the page, the script and
 * the document come from this server, so the Content-Security-Policy can be strict.
 *
 * The page has no inline script: the bundle finds the `<redoc spec-url>` element and renders it.
 * Both URLs are relative, so the page works behind a reverse proxy that mounts the API under a
 * prefix (`/docs` → `openapi.json` and `docs/redoc.standalone.js` of the same prefix).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Context } from 'hono';
import type { ProxyEnv } from '../env.js';
import { createBuiltAnswer } from './built-answer.js';

export const DOCS_PATH = '/docs';
export const DOCS_SCRIPT_PATH = '/docs/redoc.standalone.js';

/**
 * What Redoc's bundle needs, each source checked in a real browser by taking it away
 * (test/docs/docs-page.test.ts fails on any CSP violation in the console, or a page that does not render):
 * - script-src 'self': the bundle itself; no inline script, no eval.
 * - style-src 'unsafe-inline': Redoc styles its components with styled-components, which writes
 *   <style> elements at run time (the standalone bundle takes no nonce); without it nothing renders.
 *   No stylesheet is loaded, so not even 'self'.
 * - connect-src 'self': the bundle fetches this server's OpenAPI document; without it nothing renders.
 * - worker-src blob:: the search box runs lunr in a Web Worker the bundle builds from a blob: URL.
 * - img-src data:: Redoc's icons are inline SVG data: URLs, and so is the page's empty favicon (which
 *   spares the browser a request for /favicon.ico and its 404). No image is loaded from anywhere else.
 * Everything else is refused (default-src 'none'); the page cannot be framed, post forms or move its base.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'unsafe-inline'",
  "connect-src 'self'",
  'worker-src blob:',
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>Collectibles partner API reference</title>
</head>
<body>
<redoc spec-url="openapi.json" required-props-first="true" path-in-middle-panel="true" expand-responses="200"></redoc>
<script src="docs/redoc.standalone.js"></script>
</body>
</html>
`;

/** The page as served (the document's example of GET /docs). */
export function docsPage(): string {
  return PAGE;
}

/** The two answers; the bundle is read from node_modules on its first request. */
export function createDocsAnswers(): { page: (c: Context<ProxyEnv>) => Promise<Response>; script: (c: Context<ProxyEnv>) => Promise<Response> } {
  const nosniff = { 'X-Content-Type-Options': 'nosniff' };
  return {
    page: createBuiltAnswer(DOCS_PATH, docsPage, {
      contentType: 'text/html; charset=utf-8',
      headers: { 'Content-Security-Policy': DOCS_CSP, ...nosniff },
    }),
    script: createBuiltAnswer(DOCS_SCRIPT_PATH, redocBundle, {
      contentType: 'text/javascript; charset=utf-8',
      headers: nosniff,
    }),
  };
}

/**
 * The only address of another origin Redoc's bundle loads: the Redocly logo in the menu's "API docs
 * by Redocly" footer, an <img> rendered whatever the options. The CSP would block it, and the
 * browser would log that as an error on every visit, so it is served as an empty SVG instead (the
 * link text stays). The browser test fails if any other request leaves the origin.
 */
const REDOC_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const EMPTY_SVG = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";

export function redocBundle(): string {
  return readFileSync(redocBundlePath(), 'utf8').replaceAll(REDOC_LOGO, EMPTY_SVG);
}

/** The standalone bundle of the installed `redoc` package (a dependency of the proxy). */
export function redocBundlePath(): string {
  return createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
}
