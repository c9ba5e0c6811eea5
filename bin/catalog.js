#!/usr/bin/env node
// Thin runner: the TypeScript is compiled to dist/ by `npm run build` (run by `npm ci` through `prepare`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('catalog: the build is missing (dist/). Run `npm ci` or `npm run build` first.\n');
  process.exit(70);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv);
