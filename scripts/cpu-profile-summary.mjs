#!/usr/bin/env node
// Summarises V8 CPU profiles (`node --cpu-prof --cpu-prof-dir=<dir> bin/catalog.js compile ...` writes
// one per thread): per profile, the busy time and the functions with the most self time, then the
// inclusive time of the functions named with --inclusive (everything they and their callees took),
// and for each function named with --children (by name, or by its label as printed here), its
// inclusive time split by its direct callees.
// --window from,to keeps only the samples taken between those seconds after the profile started
// (a phase's span, read off the compile's log), so one phase can be looked at alone.
//
//   node scripts/cpu-profile-summary.mjs <dir-or-file>... [--top 25] [--inclusive renderAggregates,renderTrending]
//     [--children renderAggregates] [--window 12.5,30]
//
// Times come from the profile's samples and their time deltas, so they are the thread's own CPU time
// as V8 sampled it (idle and "(program)" samples are counted apart: they are not the thread's work).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const value = args[at + 1];
  args.splice(at, 2);
  return value;
};
const top = Number(option('--top', '25'));
const inclusive = option('--inclusive', '').split(',').filter(Boolean);
const children = option('--children', '').split(',').filter(Boolean);
const [windowFrom, windowTo] = option('--window', '0,Infinity').split(',').map(Number);
const files = args.flatMap((a) => (statSync(a).isDirectory() ? readdirSync(a).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(a, f)) : [a]));
if (files.length === 0) {
  console.error('usage: node scripts/cpu-profile-summary.mjs <dir-or-file>... [--top N] [--inclusive fnA,fnB] [--children fnA] [--window from,to]');
  process.exit(2);
}

const label = (frame) => `${frame.functionName || '(anonymous)'} ${basename(frame.url || '')}:${frame.lineNumber + 1}`;

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map();
  const incl = new Map();
  const split = new Map(children.map((fn) => [fn, new Map()]));
  let idle = 0;
  let total = 0;
  let clock = profile.startTime;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    clock += profile.timeDeltas[i] ?? 0;
    const at = (clock - profile.startTime) / 1e6;
    if (at < windowFrom || at > windowTo) return;
    const node = byId.get(id);
    const name = node.callFrame.functionName;
    if (name === '(idle)' || name === '(program)') {
      idle += dt;
      return;
    }
    total += dt;
    const key = label(node.callFrame);
    self.set(key, (self.get(key) ?? 0) + dt);
    if (inclusive.length === 0 && children.length === 0) return;
    // Each named function counted once per sample, however deep its recursion; its callee is the
    // frame just below its outermost appearance on the stack.
    const seen = new Set();
    // This sample's frame below each --children function (overwritten on the way up: the outermost wins).
    const below = new Map();
    let under = '(self)';
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at).callFrame;
      const fn = frame.functionName;
      if (inclusive.includes(fn) && !seen.has(fn)) {
        seen.add(fn);
        incl.set(fn, (incl.get(fn) ?? 0) + dt);
      }
      const named = label(frame);
      // A function given by its name, or by its label as this script prints it ("(anonymous) file.js:12").
      if (split.has(named)) below.set(named, under);
      else if (split.has(fn)) below.set(fn, under);
      under = named;
    }
    for (const [name, callee] of below) {
      const callees = split.get(name);
      callees.set(callee, (callees.get(callee) ?? 0) + dt);
    }
  });
  const span = (profile.endTime - profile.startTime) / 1e6;
  const shown = Number.isFinite(windowTo) || windowFrom > 0 ? ` (samples ${windowFrom}-${windowTo} s)` : '';
  console.log(`${basename(file)}${shown}: ${(span).toFixed(1)} s profiled, ${(total / 1000).toFixed(1)} s busy, ${(idle / 1000).toFixed(1)} s idle or program`);
  for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${(ms / 1000).toFixed(2).padStart(7)} s  ${key}`);
  for (const fn of inclusive) console.log(`  inclusive ${fn}: ${((incl.get(fn) ?? 0) / 1000).toFixed(2)} s`);
  for (const [fn, callees] of split) {
    const sum = [...callees.values()].reduce((a, b) => a + b, 0);
    console.log(`  ${fn}: ${(sum / 1000).toFixed(2)} s, by callee`);
    for (const [key, ms] of [...callees].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`    ${(ms / 1000).toFixed(2).padStart(7)} s  ${key}`);
  }
  console.log('');
}
