#!/usr/bin/env node
// Packed snapshots (issue 17) against the per-URL layout they replace, in the same run on the same catalog.
// The baseline is the last commit before packs (416af25), checked out into a temporary git worktree,
// built with its own `npm run build` (node_modules hard-linked from this checkout) and removed at the end.
// Each round compiles the generated catalog into a fresh root (full), changes 1% of the price lines and
// compiles again (incremental), once with each layout; the order alternates between rounds (the machine
// is shared and noisy), and every run is printed beside the medians and the ratios.
//
//   npm run bench:packs                          # 100,000 cards, 2 rounds
//   npm run bench:packs -- --cards 10000 --rounds 1 --settle 5   # a quick check
//   npm run bench:packs -- --incremental-only    # packs only: full, then incremental, per round (no baseline)
//   npm run bench:packs -- --incremental-only --against e7ffdd2   # the same, alternating with another commit's build
//   npm run bench:packs -- --1m                  # 1,000,000 cards, packs only (plus 100,000-card reference
//                                                # compiles before and after it for the "10 x the 100k
//                                                # compile" target), verify,
//                                                # then an incremental compile (skip it with --no-incremental)
//   npm run bench:packs -- --1m --rounds 3       # the same with 3 million-card compiles, each between two
//                                                # references (4 in all): a ratio per round and their median
//   npm run bench:packs -- --1m --big 20000 --rounds 2 --settle 1   # the million-card mode's steps, quickly
//
// Per run: wall seconds and peak RSS (/usr/bin/time), files in the root (`find | wc -l`) and bytes on
// disk (`du -sb`), and the CATALOG_COMPILE_TIMINGS phase lines. Deleting the baseline's half a million
// files slows file creation for a while, so measured roots are moved aside and deleted after the last
// compile; a root left by an earlier run is deleted first, then the script syncs and waits --settle
// seconds (default 60).
import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, renameSync, rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { numberOption } from './lib/arguments.mjs';
import { loadAverage, machineLine } from './lib/machine.mjs';
import { settle, timedRun, touchOnePercent } from './lib/compile-runs.mjs';

const BASELINE_COMMIT = '416af25';
const args = process.argv.slice(2);
const million = args.includes('--1m');
const onlyIncremental = args.includes('--incremental-only');
const cards = numberOption(args, '--cards', 100_000);
// The million-card mode runs one round unless asked (a round there is about 7 minutes).
const rounds = numberOption(args, '--rounds', million ? 1 : 2);
const bigCards = numberOption(args, '--big', 1_000_000);
const settleSeconds = numberOption(args, '--settle', 60);
const project = process.cwd();
const work = join(project, '.bench', 'packs');
mkdirSync(work, { recursive: true });
const packsCli = join(project, 'bin', 'catalog.js');

function sh(cmd, argv, cwd = project) {
  const r = spawnSync(cmd, argv, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} failed with ${r.status}: ${r.stderr}`);
  return r.stdout.trim();
}

/** Files (every entry `find` lists, folders included) and bytes on disk of a snapshot root. */
function rootSize(root) {
  const files = Number(sh('sh', ['-c', 'find "$1" | wc -l', 'sh', root]));
  const bytes = Number(sh('du', ['-sb', root]).split(/\s/)[0]);
  return { files, bytes };
}

/** Deletes a root; after a big one (a previous run's baseline) waits for the disk to settle. */
function removeRoot(root, files) {
  if (!existsSync(root)) return;
  const t0 = Date.now();
  rmSync(root, { recursive: true, force: true });
  process.stderr.write(`deleted ${root} (${files} files) in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  if (files > 10_000) settle(settleSeconds);
}

/**
 * Moves a measured root aside instead of deleting it: on this shared VM deleting the baseline's
 * half a million files took minutes and slowed the next compile's file creation, so the roots are
 * deleted together after the last measured compile (the time it took is printed).
 */
const trash = join(work, 'trash');
let retired = 0;
function retireRoot(root) {
  mkdirSync(trash, { recursive: true });
  renameSync(root, join(trash, `${retired++}`));
}
function emptyTrash() {
  if (!existsSync(trash)) return null;
  const files = rootSize(trash).files;
  const t0 = Date.now();
  rmSync(trash, { recursive: true, force: true });
  return { files, seconds: (Date.now() - t0) / 1000 };
}

/** The baseline checked out and built in a worktree of this repository; `remove()` deletes it. */
function baselineCheckout(commit = BASELINE_COMMIT) {
  const dir = join(work, `baseline-${commit}`);
  const remove = () => {
    spawnSync('git', ['worktree', 'remove', '--force', dir], { cwd: project });
    rmSync(dir, { recursive: true, force: true });
    spawnSync('git', ['worktree', 'prune'], { cwd: project });
  };
  remove();
  process.stderr.write(`checking out ${commit} into ${dir} and building it...\n`);
  sh('git', ['worktree', 'add', '--detach', dir, commit]);
  // A hard-linked copy: better-sqlite3's native addon is already built, and the copy costs no space.
  sh('cp', ['-al', join(project, 'node_modules'), join(dir, 'node_modules')]);
  sh('npm', ['run', 'build'], dir);
  return { cli: join(dir, 'bin', 'catalog.js'), remove };
}

/** Generates the catalog once and keeps both price files, so every run compiles the same input. */
async function catalogOf(size) {
  const cat = join(work, `catalog-${size}`);
  const prices = { full: join(cat, 'prices.full.ndjson'), changed: join(cat, 'prices.changed.ndjson') };
  if (!existsSync(prices.changed)) {
    rmSync(cat, { recursive: true, force: true });
    process.stderr.write(`generating ${size} cards...\n`);
    timedRun('node', [packsCli, 'generate', '--out', cat, '--cards', String(size), '--seed', '7']);
    // Links: touchOnePercent writes a new file and renames it over prices.ndjson.
    linkSync(join(cat, 'prices.ndjson'), prices.full);
    const changed = await touchOnePercent(cat);
    linkSync(join(cat, 'prices.ndjson'), prices.changed);
    process.stderr.write(`${changed} price series changed for the incremental compiles\n`);
  }
  return {
    dir: cat,
    // A link, not a copy: the 2.75 GB copy made just before a million-card compile was still being
    // written back to the disk while it ran.
    use: (which) => {
      const file = join(cat, 'prices.ndjson');
      rmSync(file, { force: true });
      linkSync(prices[which], file);
    },
  };
}

function compile(cli, cat, root, label) {
  // Every compile starts with nothing left to write back: a million-card catalog and its changed
  // price file are about 6 GB, and the kernel throttled the compile's own writes while they drained
  // (a profile of such a run, 2026-11-27: 25 s blocked in the pack writes; 1.4 s at 300,000 cards).
  spawnSync('sync');
  process.stderr.write(`${label} (load average ${loadAverage()})...\n`);
  const r = timedRun('node', [cli, 'compile', '--source', cat.dir, '--out', root]);
  const objects = Number(/: (\d+) objects/.exec(r.stdout)?.[1] ?? 0);
  const result = { ...r, objects, load: loadAverage(), ...rootSize(root) };
  process.stderr.write(`  ${r.stdout.split('\n').at(-1)}\n  ${result.wall.toFixed(1)} s, peak ${result.peakMiB?.toFixed(0)} MiB, ${result.files} files, ${result.bytes} bytes\n`);
  return result;
}

/** Full compile into a fresh root, then the incremental one after 1% of price lines changed. */
function fullAndIncremental(cli, cat, root, label) {
  cat.use('full');
  const full = compile(cli, cat, root, `${label}: full compile`);
  cat.use('changed');
  const inc = compile(cli, cat, root, `${label}: incremental compile (1% of prices changed)`);
  return { full, inc };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const f = (x, d = 1) => (x === null || x === undefined ? 'n/a' : x.toFixed(d));
const n = (x) => x.toLocaleString('en-US');
const mb = (bytes) => (bytes / 1e6).toFixed(0);

function printPhases(label, res) {
  console.log(`${label}:`);
  for (const line of res.phases) console.log(`  ${line}`);
}

async function compare() {
  const cat = await catalogOf(cards);
  const baseline = baselineCheckout();
  const layouts = { baseline: baseline.cli, packs: packsCli };
  const runs = [];
  try {
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 === 1 ? ['baseline', 'packs'] : ['packs', 'baseline'];
      for (const layout of order) {
        const root = join(work, `root-${layout}`);
        removeRoot(root, existsSync(root) ? rootSize(root).files : 0);
        const r = fullAndIncremental(layouts[layout], cat, root, `round ${round}, ${layout}, ${n(cards)} cards`);
        runs.push({ round, layout, ...r });
        retireRoot(root);
      }
    }
  } finally {
    baseline.remove();
  }

  console.log(machineLine());
  console.log(`command: npm run bench:packs${args.length ? ' -- ' + args.join(' ') : ''}`);
  console.log(`catalog: generate --cards ${cards} --seed 7; incremental: the last price of every 100th price line changed`);
  console.log(`baseline: ${BASELINE_COMMIT} (per-URL files); packs: ${sh('git', ['rev-parse', '--short', 'HEAD'])}`);
  console.log('');
  console.log('| round | layout | objects | full s | full cpu s | full peak MiB | files after full | MB after full | incremental s | incr. cpu s | incr. peak MiB | files after incr. | MB after incr. | incr./full | load at start of full |');
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of runs) {
    console.log(
      `| ${r.round} | ${r.layout} | ${n(r.full.objects)} | ${f(r.full.wall)} | ${f(r.full.cpu)} | ${f(r.full.peakMiB, 0)} | ${n(r.full.files)} | ${mb(r.full.bytes)} | ` +
        `${f(r.inc.wall)} | ${f(r.inc.cpu)} | ${f(r.inc.peakMiB, 0)} | ${n(r.inc.files)} | ${mb(r.inc.bytes)} | ${f(r.inc.wall / r.full.wall, 3)} | ${r.full.load} |`,
    );
  }
  const med = {};
  for (const layout of ['baseline', 'packs']) {
    const mine = runs.filter((r) => r.layout === layout);
    const m = (pick) => median(mine.map(pick));
    med[layout] = { full: m((r) => r.full.wall), fullCpu: m((r) => r.full.cpu ?? 0), inc: m((r) => r.inc.wall), incCpu: m((r) => r.inc.cpu ?? 0), peak: m((r) => r.full.peakMiB ?? 0) };
    const o = med[layout];
    console.log(`| median | ${layout} | | ${f(o.full)} | ${f(o.fullCpu)} | ${f(o.peak, 0)} | | | ${f(o.inc)} | ${f(o.incCpu)} | | | | ${f(o.inc / o.full, 3)} | |`);
  }
  console.log('');
  const fullRatio = med.packs.full / med.baseline.full;
  const incRatio = med.packs.inc / med.packs.full;
  console.log(`packs full / baseline full (medians): ${f(fullRatio, 3)} (target <= 0.6: ${fullRatio <= 0.6 ? 'met' : 'missed'})`);
  console.log(`packs incremental / packs full (medians): ${f(incRatio, 3)} (target <= 0.05: ${incRatio <= 0.05 ? 'met' : 'missed'})`);
  console.log(`the same in CPU seconds (steadier on a shared machine): ${f(med.packs.fullCpu / med.baseline.fullCpu, 3)} and ${f(med.packs.incCpu / med.packs.fullCpu, 3)}`);
  for (let round = 1; round <= rounds; round++) {
    const b = runs.find((r) => r.round === round && r.layout === 'baseline');
    const p = runs.find((r) => r.round === round && r.layout === 'packs');
    console.log(`round ${round}: packs full / baseline full ${f(p.full.wall / b.full.wall, 3)}, packs incremental / packs full ${f(p.inc.wall / p.full.wall, 3)}`);
  }
  console.log(`load average at the end: ${loadAverage()}`);
  console.log('');
  for (const r of runs) {
    printPhases(`round ${r.round}, ${r.layout}, full`, r.full);
    printPhases(`round ${r.round}, ${r.layout}, incremental`, r.inc);
  }
  // After the results: at 100,000 cards the two baseline roots are 2.6 million files and folders.
  process.stderr.write('deleting the measured roots...\n');
  const deleted = emptyTrash();
  if (deleted) console.log(`\ndeleting the ${rounds * 2} measured roots afterwards (${n(deleted.files)} files and folders): ${f(deleted.seconds)} s`);
}

/** One run of the million-card mode, printed as soon as it ends: a run stopped halfway keeps what it measured. */
function printRun(label, r) {
  console.log(`${label}: ${n(r.objects)} objects, ${f(r.wall)} s wall, ${f(r.cpu)} s cpu, peak ${f(r.peakMiB, 0)} MiB, ${n(r.files)} files in the root, ${mb(r.bytes)} MB (load at start ${r.load})`);
  for (const line of r.phases) console.log(`  ${line}`);
}

async function millionCards() {
  const free = statfsSync(work);
  const freeGB = (free.bavail * free.bsize) / 1e9;
  // About 6 GB of input (the catalog, its price file and the changed copy), and the packed root of a million cards beside it.
  // About 20 GB at a million cards; a smaller --big needs its share of that.
  const neededGB = Math.max(1, Math.ceil((20 * bigCards) / 1_000_000));
  if (freeGB < neededGB) throw new Error(`only ${freeGB.toFixed(0)} GB free under ${work}; a ${n(bigCards)}-card run needs about ${neededGB} GB`);
  process.stderr.write(`${freeGB.toFixed(0)} GB free\n`);
  console.log(machineLine());
  console.log(`command: npm run bench:packs -- ${args.join(' ')}`);
  console.log(`packs: ${sh('git', ['rev-parse', '--short', 'HEAD'])}; catalog: generate --cards ${bigCards} --seed 7`);
  console.log('');
  const reference = await catalogOf(100_000);
  const refRoot = join(work, 'root-reference');
  // The 100k reference is compiled before and after each million-card compile: this host's speed
  // drifts by more than 10% within half an hour, and two references of one run differed by 18%
  // (docs/benchmarks.md), so the ratio is given against each and against their mean; with --rounds
  // N the million-card compiles alternate with N + 1 references, and the verdict is the median of
  // the rounds' ratios.
  const compileReference = (label) => {
    removeRoot(refRoot, 0);
    reference.use('full');
    const r = compile(packsCli, reference, refRoot, `reference (${label}): packs, 100,000 cards, full compile`);
    printRun(`100,000 cards, full (reference, ${label})`, r);
    removeRoot(refRoot, r.files);
    return r;
  };
  const big = n(bigCards);
  const cat = await catalogOf(bigCards);
  const root = join(work, 'root-1m');
  let ref = compileReference(rounds > 1 ? 'before round 1' : 'before');
  const ratios = [];
  let full = null;
  for (let round = 1; round <= rounds; round++) {
    removeRoot(root, existsSync(root) ? rootSize(root).files : 0);
    cat.use('full');
    const of = rounds > 1 ? ` (round ${round})` : '';
    full = compile(packsCli, cat, root, `packs, ${big} cards, full compile${of}`);
    printRun(`${big} cards, full${of}`, full);
    const after = compileReference(rounds > 1 ? `after round ${round}` : 'after');
    const ratio = full.wall / ((ref.wall + after.wall) / 2);
    ratios.push(ratio);
    console.log(`${big} full / 100k full${of}: ${f(ratio, 2)} against the mean of the references (${f(full.wall / ref.wall, 2)} before, ${f(full.wall / after.wall, 2)} after; target${bigCards === 1_000_000 ? ': compile <= 600 s,' : ' at a million cards:'} <= 10 x the 100k compile)`);
    console.log(`peak RSS ${f(full.peakMiB, 0)} MiB (target <= 2048); files in root ${n(full.files)} (target < 400)`);
    ref = after;
  }
  if (rounds > 1) console.log(`${big} full / 100k full, median of ${rounds} rounds: ${f(median(ratios), 2)} (${ratios.map((r) => f(r, 2)).join(', ')})`);
  process.stderr.write(`catalog verify ${root}...\n`);
  const verify = timedRun('node', [packsCli, 'verify', root], { allowFailure: true });
  const verifyLines = (verify.stdout + '\n' + verify.stderr).split('\n').filter((l) => l && !l.startsWith('__TIME__'));
  if (verify.status === 0) console.log(`catalog verify: ${f(verify.wall)} s, peak ${f(verify.peakMiB, 0)} MiB (target <= 180 s): ${verifyLines.at(-1)}`);
  else console.log(`catalog verify: skipped, exit ${verify.status} after ${f(verify.wall)} s (packed verify not on this branch yet): ${verifyLines.slice(-2).join(' / ')}`);
  if (!args.includes('--no-incremental')) {
    cat.use('changed');
    const inc = compile(packsCli, cat, root, `packs, ${big} cards, incremental compile (1% of prices changed)`);
    printRun(`${big} cards, incremental (1% changed)`, inc);
    console.log(`incremental / full: ${f(inc.wall / full.wall, 3)}`);
  }
  const sizes = (name) => Number(sh('sh', ['-c', `du -cb "$1"/*/${name} | tail -1`, 'sh', root]).split(/\s/)[0]);
  console.log(`manifest.ndjson (all snapshots): ${n(sizes('manifest.ndjson'))} bytes; objects.sqlite (all snapshots): ${n(sizes('objects.sqlite'))} bytes`);
  console.log(`load average at the end: ${loadAverage()}`);

  if (!args.includes('--keep')) {
    removeRoot(root, 0);
    rmSync(cat.dir, { recursive: true, force: true });
  }
}

/**
 * The incremental target alone (issue 17: at most 0.05 of a full compile): each round a full packed
 * compile into a fresh root, then the incremental one after the 1% change, same catalog, same run.
 */
async function incrementalOnly() {
  const cat = await catalogOf(cards);
  const at = args.indexOf('--against');
  const other = at >= 0 ? baselineCheckout(args[at + 1]) : null;
  const builds = other ? { [args[at + 1]]: other.cli, HEAD: packsCli } : { HEAD: packsCli };
  const runs = [];
  try {
    for (let round = 1; round <= rounds; round++) {
      const names = Object.keys(builds);
      for (const build of round % 2 === 1 ? names : names.reverse()) {
        const root = join(work, 'root-incremental');
        removeRoot(root, existsSync(root) ? rootSize(root).files : 0);
        runs.push({ round, build, ...fullAndIncremental(builds[build], cat, root, `round ${round}, ${build}, ${n(cards)} cards`) });
        removeRoot(root, 0);
      }
    }
  } finally {
    other?.remove();
  }
  console.log(machineLine());
  console.log(`command: npm run bench:packs -- ${args.join(' ')}; HEAD: ${sh('git', ['rev-parse', '--short', 'HEAD'])}`);
  console.log('');
  console.log('| round | build | full s | full cpu s | incremental s | incr. cpu s | incr./full wall | incr./full cpu | load after full / incr. |');
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|---|');
  for (const r of runs) {
    console.log(`| ${r.round} | ${r.build} | ${f(r.full.wall)} | ${f(r.full.cpu)} | ${f(r.inc.wall)} | ${f(r.inc.cpu)} | ${f(r.inc.wall / r.full.wall, 3)} | ${f(r.inc.cpu / r.full.cpu, 3)} | ${r.full.load} / ${r.inc.load} |`);
  }
  console.log('');
  for (const r of runs) {
    printPhases(`round ${r.round}, ${r.build}, full`, r.full);
    printPhases(`round ${r.round}, ${r.build}, incremental`, r.inc);
  }
}

if (million) await millionCards();
else if (onlyIncremental) await incrementalOnly();
else await compare();
