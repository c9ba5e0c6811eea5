#!/usr/bin/env node
/**
 * Decoding and parsing a stored catalog's records (compiler/compile/catalog-frames.ts) as whole
 * frames against pieces of at most N bytes, each way in a fresh process so neither inherits the
 * other's heap, alternating:
 *
 * - `whole`: each frame's JSON as one array, decoded to one string (what catalog-state/2 stored);
 * - `pieces:N`: the same records cut into JSON arrays of whole records of at most about N bytes
 *   (what catalog-state/3 stores, with N = 32768), each decoded and parsed on its own.
 *
 *   npm run bench:json-pieces -- <catalog.state> [--rounds 2] [--sizes 16384,32768,65536,131072]
 *
 * The records are taken from the file's frames (either format) and cut here, so every variant parses
 * the same records; reported: decoding (bytes to strings) and parsing, wall and CPU of the process.
 * Imports from dist/, so build first. Nothing imports this file.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { machineLine } from './lib/machine.mjs';

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '2' }, sizes: { type: 'string', default: '16384,32768,65536,131072' }, child: { type: 'string' } },
});
const [statePath, workDir] = positionals;
if (!statePath) throw new Error('usage: node scripts/bench-json-pieces.mjs <catalog.state> [--rounds 2] [--sizes 16384,32768]');

if (opts.child !== undefined) {
  // One variant, in this process: `--child whole|<bytes> <state> <work dir>`.
  const bytes = readFileSync(join(workDir, `${opts.child}.bin`));
  const lengths = JSON.parse(readFileSync(join(workDir, `${opts.child}.json`), 'utf8'));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let decode = 0;
  let parse = 0;
  let records = 0;
  let at = 0;
  for (const length of lengths) {
    let t = performance.now();
    const text = bytes.toString('utf8', at, at + length);
    decode += performance.now() - t;
    t = performance.now();
    records += JSON.parse(text).length;
    parse += performance.now() - t;
    at += length;
  }
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(JSON.stringify({ records, strings: lengths.length, decode: decode / 1000, parse: parse / 1000, wall: (performance.now() - t0) / 1000, cpu: (cpu.user + cpu.system) / 1e6 }));
  process.exit(0);
}

const dist = new URL('../dist/', import.meta.url);
const { readFrames } = await import(new URL('compiler/compile/framed-file.js', dist));
const frames = readFrames(statePath, () => true);
if (frames === null) throw new Error(`${statePath}: not a whole state file`);
const head = frames[0];
const recordFrames = frames.slice(1, 1 + head.cardFrames + head.figureFrames);
const sizes = opts.sizes.split(',').map(Number);
const work = mkdtempSync(join(tmpdir(), 'json-pieces-'));
try {
  // The records of each frame, whichever format the file has: its pieces are one per line.
  const slices = recordFrames.map((u8) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength).toString('utf8').split('\n').flatMap((piece) => JSON.parse(piece)));
  const write = (name, texts) => {
    const buffers = texts.map((t) => Buffer.from(t, 'utf8'));
    writeFileSync(join(work, `${name}.bin`), Buffer.concat(buffers));
    writeFileSync(join(work, `${name}.json`), JSON.stringify(buffers.map((b) => b.length)));
  };
  write('whole', slices.map((records) => JSON.stringify(records)));
  for (const size of sizes) {
    const texts = [];
    for (const records of slices) {
      let piece = [];
      let bytes = 0;
      for (const record of records) {
        const json = JSON.stringify(record);
        piece.push(json);
        bytes += Buffer.byteLength(json) + 1;
        if (bytes >= size) {
          texts.push(`[${piece.join(',')}]`);
          piece = [];
          bytes = 0;
        }
      }
      if (piece.length > 0) texts.push(`[${piece.join(',')}]`);
    }
    write(String(size), texts);
  }
  const variants = ['whole', ...sizes.map(String)];
  const results = new Map(variants.map((v) => [v, []]));
  const self = fileURLToPath(import.meta.url);
  for (let round = 0; round < Number(opts.rounds); round++) {
    for (const v of round % 2 === 0 ? variants : [...variants].reverse()) {
      results.get(v).push(JSON.parse(execFileSync(process.execPath, [self, statePath, work, '--child', v], { encoding: 'utf8' })));
    }
  }
  console.log(machineLine());
  console.log(`${statePath}: ${recordFrames.length} frames, ${slices.reduce((n, s) => n + s.length, 0)} records`);
  console.log('| variant | strings | decode s | parse s | wall s | CPU s |');
  console.log('|---|---:|---:|---:|---:|---:|');
  const range = (xs) => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}`;
  for (const [v, rs] of results) {
    const label = v === 'whole' ? 'whole frames' : `pieces of ${v} bytes`;
    console.log(`| ${label} | ${rs[0].strings} | ${range(rs.map((r) => r.decode))} | ${range(rs.map((r) => r.parse))} | ${range(rs.map((r) => r.wall))} | ${range(rs.map((r) => r.cpu))} |`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
