#!/usr/bin/env node
// The document bulk files (issue 17): this checkout's writer against another commit's, in the same run, on
// the same two snapshots. Compiles a generated catalog (full), changes the last price of every 100th price
// line and compiles again (incremental), then builds the `cards` bulk file of the second snapshot in this
// process with each writer, alternating: once from the objects alone (what a full compile does) and once
// with the first snapshot's file, as that writer writes it, as the previous one (what the incremental compile did before
// 2026-11-29), and once given as a patch: the changed objects and the previous object index (what an incremental compile
// in which no key was added or removed does: compiler/bulk/patch-file.ts, or patch-job.ts in older writers). Each build
// runs on this one thread, so process.cpuUsage() is its CPU time, steadier than the wall time on a shared machine.
//
//   npm run bench:bulk                                 # 100,000 cards, against d9cba1e, 3 rounds
//   npm run bench:bulk -- --cards 20000 --rounds 1     # a quick check
//   npm run bench:bulk -- --against <commit>
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { numberOption } from './lib/arguments.mjs';
import { loadAverage, machineLine } from './lib/machine.mjs';
import { touchOnePercent } from './lib/compile-runs.mjs';

const args = process.argv.slice(2);
const cards = numberOption(args, '--cards', 100_000);
const rounds = numberOption(args, '--rounds', 3);
const against = args.includes('--against') ? args[args.indexOf('--against') + 1] : 'd9cba1e';
const project = process.cwd();
const work = join(project, '.bench', 'bulk');
mkdirSync(work, { recursive: true });

function sh(cmd, argv, cwd = project) {
  const r = spawnSync(cmd, argv, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} failed with ${r.status}: ${r.stderr}`);
  return r.stdout.trim();
}

const baseline = join(work, `baseline-${against}`);
if (!existsSync(join(baseline, 'dist'))) {
  process.stderr.write(`checking out ${against} into ${baseline} and building it...\n`);
  rmSync(baseline, { recursive: true, force: true });
  sh('git', ['worktree', 'add', '--detach', baseline, against]);
  sh('cp', ['-al', join(project, 'node_modules'), join(baseline, 'node_modules')]);
  sh('npx', ['tsc', '-p', 'tsconfig.json'], baseline);
}

const catalog = join(work, `catalog-${cards}`);
const root = join(work, 'root');
rmSync(root, { recursive: true, force: true });
if (!existsSync(join(catalog, 'meta.json'))) {
  process.stderr.write(`generating ${cards} cards...\n`);
  sh('node', ['bin/catalog.js', 'generate', '--cards', String(cards), '--seed', '7', '--out', catalog]);
}
process.stderr.write('compiling (full, then after 1% of the price lines changed)...\n');
sh('node', ['bin/catalog.js', 'compile', '--source', catalog, '--out', root]);
await touchOnePercent(catalog);
sh('node', ['bin/catalog.js', 'compile', '--source', catalog, '--out', root]);

const snapshots = readdirSnapshots(root);
const [previousDir, currentDir] = snapshots.slice(-2).map((id) => join(root, id));

function readdirSnapshots(dir) {
  return sh('ls', [dir]).split('\n').filter((n) => /^\d{8}T\d{6}Z-/.test(n)).sort();
}

/** Manifest entries of a packed snapshot's object index, with where each object is. */
function indexEntries(dir) {
  const db = new Database(join(dir, 'objects.sqlite'), { readonly: true });
  const packs = new Map(db.prepare('SELECT seq, sha256 FROM packs').all().map((p) => [p.seq, p.sha256]));
  const rows = db.prepare('SELECT key, pack, offset, length, hex(sha256) AS sha FROM objects').all();
  db.close();
  return rows.map((r) => ({ key: r.key, size: r.length, sha256: r.sha.toLowerCase(), input: null, at: { pack: packs.get(r.pack), offset: r.offset } }));
}

const current = indexEntries(currentDir);
const previous = indexEntries(previousDir);
const previousObjects = new Map(previous.map((e) => [e.key, { sha256: e.sha256 }]));
const locate = { packsDir: join(root, 'packs'), of: (e) => e.at };

async function writerOf(dir) {
  const mod = await import(join(dir, 'dist', 'compiler', 'bulk', 'write-bulk.js'));
  // A writer from before 2026-11-28 has no patch job: its patch column is left empty.
  const patchJob = join(dir, 'dist', 'compiler', 'bulk', 'patch-job.js');
  const documentPatch = existsSync(patchJob) ? (await import(patchJob)).documentPatch : null;
  return { ...mod, documentPatch };
}

// The cards objects whose bytes changed, as the compile hands them to the bulk thread (in key order).
const before = new Map(previous.map((e) => [e.key, e.sha256]));
const changed = current
  .filter((e) => /^v1\/cards\/[^/]+\/30d\.json\.gz$/.test(e.key) && before.get(e.key) !== e.sha256)
  .sort((a, b) => (a.key < b.key ? -1 : 1))
  .map((e) => ({ key: e.key, size: e.size, digest: Buffer.from(e.sha256, 'hex'), pack: e.at.pack, offset: e.at.offset }));
const builds = [
  { name: against, mod: await writerOf(baseline) },
  { name: 'this checkout', mod: await writerOf(project) },
];

// Each writer's incremental build starts from the previous snapshot's file as that writer wrote it
// (the compile above wrote the previous snapshot's with this checkout's, whose format another
// writer may not read).
for (const b of builds) {
  b.previousDir = mkdtempSync(join(work, 'previous-'));
  const file = await b.mod.buildBulkFile(b.mod.documentJob('cards', previous, null, locate), b.previousDir, null, new Map());
  b.previousBulk = new Map([['cards', file]]);
}

async function timed(b, mode) {
  const { mod } = b;
  const withPrevious = mode !== 'full';
  const out = mkdtempSync(join(work, 'out-'));
  const job = mode === 'patch'
    ? mod.documentPatch('cards', join(previousDir, 'objects.sqlite'), locate.packsDir, changed)
    : mod.documentJob('cards', current, withPrevious ? previousObjects : null, locate);
  const prevBulk = withPrevious ? b.previousBulk : new Map();
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const file = await mod.buildBulkFile(job, out, withPrevious ? b.previousDir : null, prevBulk);
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  const size = statSync(join(out, file.file)).size;
  rmSync(out, { recursive: true, force: true });
  return { wall, cpu: (cpu.user + cpu.system) / 1e6, size, sha256: file.sha256 };
}

const results = builds.map(() => ({ full: [], incremental: [], patch: [] }));
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? [0, 1] : [1, 0];
  for (const i of order) {
    for (const mode of ['full', 'incremental', 'patch']) {
      if (mode === 'patch' && builds[i].mod.documentPatch === null) continue;
      const m = await timed(builds[i], mode);
      results[i][mode].push(m);
      process.stderr.write(`round ${r + 1}, ${builds[i].name}, ${mode}: ${m.wall.toFixed(2)} s wall, ${m.cpu.toFixed(2)} s cpu, ${m.size} bytes (load ${loadAverage()})\n`);
    }
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(machineLine());
console.log(`command: npm run bench:bulk -- ${args.join(' ')}; HEAD: ${sh('git', ['rev-parse', '--short', 'HEAD'])}; ${cards} cards, cards bulk file of the incremental snapshot (1% of price lines changed, ${changed.length} of its objects)`);
console.log('');
console.log('| writer | full build cpu s | full wall s | incremental build cpu s | incremental wall s | patch cpu s | patch wall s | file bytes |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
builds.forEach((b, i) => {
  const f = results[i].full;
  const n = results[i].incremental;
  const p = results[i].patch;
  const cell = (xs, k) => (xs.length === 0 ? 'n/a' : median(xs.map((x) => x[k])).toFixed(2));
  console.log(`| ${b.name} | ${cell(f, 'cpu')} | ${cell(f, 'wall')} | ${cell(n, 'cpu')} | ${cell(n, 'wall')} | ${cell(p, 'cpu')} | ${cell(p, 'wall')} | ${f[0].size} |`);
  const same = new Set([...f, ...n, ...p].map((x) => x.sha256)).size === 1;
  if (!same) throw new Error(`${b.name}: the full, incremental and patch builds differ`);
});
console.log(`medians of ${rounds} round(s); load average at the end: ${loadAverage()}`);
for (const b of builds) rmSync(b.previousDir, { recursive: true, force: true });
rmSync(root, { recursive: true, force: true });
sh('git', ['worktree', 'remove', '--force', baseline]);
