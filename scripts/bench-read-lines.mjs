#!/usr/bin/env node
/**
 * Reading a catalog file line by line, as the compile streams the price file: the project's
 * `fileChunks` (two 1 MB buffers in turn, the next chunk read while this one is worked on) against
 * one buffer read at a time (how it read before, 256 KB), each line split with `splitLineBytes` and
 * hashed with SHA-1 as `streamPrices` does. The two alternate, so the host's drift falls on both.
 * With --cold (root only) the page cache is dropped before every run, as when the file was just
 * written by something else and evicted; without it the file is read from the cache.
 *
 *   npm run build && node scripts/bench-read-lines.mjs <file> [--rounds 2] [--cold]
 *
 * Imports from dist/, so build first. Nothing imports this file.
 */
import { open } from 'node:fs/promises';
import { writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { hash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { machineLine } from './lib/machine.mjs';

const dist = new URL('../dist/', import.meta.url);
const { fileChunks, splitLineBytes } = await import(new URL('compiler/source/lines.js', dist));

const { values: opts, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: 'string', default: '2' }, cold: { type: 'boolean', default: false } } });
const file = positionals[0];
const rounds = Number(opts.rounds);
if (!file) throw new Error('usage: node scripts/bench-read-lines.mjs <file> [--rounds 2] [--cold]');
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be an integer >= 1');

/** One buffer, each chunk read only when the consumer asks for it (fileChunks before 2026-11-28). */
async function* oneBufferChunks(handle, chunkBytes = 256 * 1024) {
  const buf = Buffer.allocUnsafeSlow(chunkBytes);
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, chunkBytes, null);
      if (bytesRead === 0) return;
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

async function run(name, chunks) {
  if (opts.cold) {
    spawnSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '1');
  }
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  let lines = 0;
  for await (const batch of splitLineBytes(chunks(await open(file, 'r')))) {
    for (const line of batch) {
      hash('sha1', line.bytes, 'base64url');
      lines++;
    }
  }
  const wall = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(cpu);
  console.log(`| ${name} | ${lines} | ${wall.toFixed(2)} | ${(used.user / 1e6).toFixed(2)} | ${(used.system / 1e6).toFixed(2)} |`);
}

console.log(machineLine());
console.log(`command: node scripts/bench-read-lines.mjs ${process.argv.slice(2).join(' ')}`);
console.log('');
console.log('| reader | lines | wall s | user s | system s |');
console.log('|---|---:|---:|---:|---:|');
for (let round = 1; round <= rounds; round++) {
  const both = [['one 256 KB buffer', oneBufferChunks], ['fileChunks (two 1 MB buffers)', fileChunks]];
  for (const [name, chunks] of round % 2 === 1 ? both : both.reverse()) await run(name, chunks);
}
