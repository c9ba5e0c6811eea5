#!/usr/bin/env node
// Prints what nginx stored in a proxy_cache file's header: the freshness it derived from the
// response (valid until, minus the response date = s-maxage), the stale-while-revalidate and
// stale-if-error windows, the ETag it will revalidate with, and the cache key (which must hold no
// credential). Layout: ngx_http_file_cache_header_t of nginx >= 1.11.10 on 64-bit Linux
// (src/http/ngx_http_cache.h): version, valid_sec, updating_sec, error_sec, last_modified, date
// (8 bytes each), crc32 (4), valid_msec, header_start, body_start (2 each), etag_len (1), etag[128],
// vary_len (1), vary[128], variant[16]; then "\nKEY: <key>\n".
//
//   node scripts/bench-edge-cache/cache-entry.mjs <cache file>
import { readFileSync } from 'node:fs';
import { argumentsOrUsage } from '../lib/arguments.mjs';

const [file] = argumentsOrUsage('node scripts/bench-edge-cache/cache-entry.mjs <cache file>');
const b = readFileSync(file);
const int = (offset) => Number(b.readBigInt64LE(offset));
const validSec = int(8);
const updatingSec = int(16);
const errorSec = int(24);
const date = int(40);
const etagLen = b[58];
const etag = b.subarray(59, 59 + etagLen).toString('latin1');
const keyAt = b.indexOf('\nKEY: ');
const key = keyAt < 0 ? '' : b.subarray(keyAt + 6, b.indexOf('\n', keyAt + 6)).toString('utf8');
process.stdout.write(JSON.stringify({ freshSeconds: validSec - date, staleWhileRevalidateSeconds: updatingSec, staleIfErrorSeconds: errorSec, etag, key }) + '\n');
