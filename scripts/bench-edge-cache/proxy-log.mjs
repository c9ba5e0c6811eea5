#!/usr/bin/env node
// Counts the proxy's request log lines (JSON, one per request, on its stderr) by route pattern and
// status, e.g. {"/v1/cards/:id 200": 1, "/v1/cards/:id 304": 1}. Other lines are skipped.
//
//   node scripts/bench-edge-cache/proxy-log.mjs <proxy stderr file>
import { readFileSync } from 'node:fs';
import { argumentsOrUsage } from '../lib/arguments.mjs';

const [file] = argumentsOrUsage('node scripts/bench-edge-cache/proxy-log.mjs <proxy stderr file>');
const counts = {};
for (const line of readFileSync(file, 'utf8').split('\n')) {
  if (!line.startsWith('{')) continue;
  const entry = JSON.parse(line);
  if (entry.msg !== 'request') continue;
  const k = `${entry.route} ${entry.status}`;
  counts[k] = (counts[k] ?? 0) + 1;
}
process.stdout.write(JSON.stringify(counts) + '\n');
