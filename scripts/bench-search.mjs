#!/usr/bin/env node
/**
 * Search benchmark: builds an index of N synthetic entries with the real builder, then runs a warm-up
 * and a mix of queries through the real query engine (parse → plan → index.search) and through the
 * real route in-process (Hono app.request: adds envelope, JSON, ETag), and prints latency percentiles
 * per query class and overall, with the machine and the command.
 *
 *   npx tsc -p tsconfig.json && node scripts/bench-search.mjs [--n 100000] [--queries 5000] [--seed 7] [--keep DIR]
 *
 * Imports from dist/, so build first. Nothing imports this file.
 */
import { mkdtempSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir, cpus, totalmem, platform, release } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Hono } from 'hono';
import { loadAverage } from './lib/machine.mjs';

const dist = new URL('../dist/', import.meta.url);
const { createSearchIndexBuilder } = await import(new URL('compiler/search/index-builder.js', dist));
const { openSearchIndex } = await import(new URL('proxy/search/search-index.js', dist));
const { parseSearchQuery } = await import(new URL('proxy/search/query.js', dist));
const { planSearch } = await import(new URL('proxy/search/plan.js', dist));
const { createSearchAnswer } = await import(new URL('proxy/routes/search.js', dist));
const { catalogTable } = await import(new URL('proxy/route-table/catalog-table.js', dist));
const { registerRoutes } = await import(new URL('proxy/route-table/register.js', dist));
const { createSearchIndexCache } = await import(new URL('proxy/search/index-cache.js', dist));
const { SEARCH_DB_FILE } = await import(new URL('snapshots/keys.js', dist));
const { searchTokens } = await import(new URL('snapshots/search-schema.js', dist));

const { values: opts } = parseArgs({
  options: {
    n: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '5000' },
    seed: { type: 'string', default: '7' },
    keep: { type: 'string' },
  },
});
const N = Number(opts.n);
const QUERIES = Number(opts.queries);
if (!Number.isInteger(N) || N < 1000) throw new Error('--n must be an integer >= 1000');
if (!Number.isInteger(QUERIES) || QUERIES < 100) throw new Error('--queries must be an integer >= 100');

// ---------------------------------------------------------------------------------------------
// A small deterministic generator of realistic names (words, titles, diacritics, numbers).

function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = prng(Number(opts.seed));
const pick = (list) => list[Math.floor(rand() * list.length)];
/** Skewed pick: low indexes much more often (word frequencies are Zipf-like in real catalogs). */
const pickSkewed = (list) => list[Math.floor(list.length * rand() ** 2)];

const ADJ = `ancient arcane ashen blazing bloodthirsty bright brave broken crimson cursed dark dauntless dire
  divine dread elder eternal fallen feral fiery frozen gilded glorious grim hallowed hidden hollow howling
  infernal iron jade lost lunar mighty molten mystic noble obsidian primal radiant raging reckless royal
  sacred savage scarlet shadow shattered silent silver solar spectral stone storm sunlit swift thundering
  twisted undying valiant verdant vicious wandering wild wicked winged wise`.split(/\s+/);
const NOUN = `angel apprentice archer assassin avenger banshee bear beast behemoth blade bolt brute captain
  champion chimera cleric colossus commander construct crusader cultist dragon drake druid duelist elemental
  emissary familiar fiend gargoyle giant goblin golem griffin guardian harbinger herald hound hydra knight
  leviathan lich marauder mage minotaur monk oracle paladin phoenix pirate prophet ranger raptor revenant
  rogue sage sentinel serpent shaman skeleton sorcerer specter sphinx spirit squire titan treant troll
  vampire warden warlock warrior wizard wolf wraith wurm zealot`.split(/\s+/);
const PLACE = `abyss archive bastion citadel crypt desert dominaria forest fortress glade harbor haven isle jungle
  kaldheim labyrinth marsh meadow monastery mountain nexus ravnica ruins sanctum spire summit swamp temple
  tundra valley vault volcano wastes zendikar`.split(/\s+/);
const THING = `fire frost flame storm thunder lightning shadow light ash bone blood dawn dusk night void
  wrath fury doom glory hope ruin wrath echo dream`.split(/\s+/);
const SYL = ['ka', 'ri', 'zu', 'mon', 'pik', 'cha', 'char', 'lu', 'fy', 'eev', 'bul', 'sa', 'sau', 'gar', 'do', 'ra', 'mew', 'ty', 'ni', 'ón', 'é', 'za', 'ro', 'xa', 'mé', 'li', 'nö', 'qu'];
const FIRST = `anna ben carla dan elena felix greta hervé ines jon kai lena marco nadia oskar paula quinn rosa sven
  tara ugo vera wes xenia yuki zoé chris rebecca john terese mark kev ron seb`.split(/\s+/);
const LAST = `rush guay nielsen avon müller søndergaard dupont garcía kim tanaka smith ivanova okafor björk
  lópez chen nakamura walker fernández o'brien wright allen hoang patel`.split(/\s+/);
const cap = (w) => w.charAt(0).toUpperCase() + w.slice(1);

function monsterName() {
  let s = '';
  const parts = 2 + Math.floor(rand() * 2);
  for (let i = 0; i < parts; i++) s += pick(SYL);
  return cap(s);
}

function cardName(game) {
  const r = rand();
  if (game === 'pokemon') {
    const base = monsterName();
    return r < 0.3 ? `${base} ex` : r < 0.45 ? `${base} V` : r < 0.55 ? `${cap(pickSkewed(ADJ))} ${base}` : base;
  }
  if (game === 'onepiece') return `${cap(pick(FIRST))} ${cap(pick(SYL))}${pick(SYL)}${r < 0.3 ? ' the ' + cap(pickSkewed(NOUN)) : ''}`;
  if (r < 0.35) return `${cap(pickSkewed(ADJ))} ${cap(pickSkewed(NOUN))}`;
  if (r < 0.5) return `${cap(pickSkewed(NOUN))} of the ${cap(pickSkewed(PLACE))}`;
  if (r < 0.65) return `${cap(pickSkewed(THING))} ${cap(pickSkewed(NOUN))}`;
  if (r < 0.8) return `${cap(pick(FIRST))}, ${cap(pickSkewed(ADJ))} ${cap(pickSkewed(NOUN))}`;
  if (r < 0.9) return `${cap(pickSkewed(THING))}${pickSkewed(THING)}`;
  return `${cap(pickSkewed(ADJ))} ${cap(pickSkewed(THING))} ${cap(pickSkewed(NOUN))}`;
}

const GAMES = ['mtg', 'pokemon', 'lorcana', 'onepiece'];
const SETS = Array.from({ length: Math.max(40, Math.floor(N / 250)) }, (_, i) => {
  const game = GAMES[i % 4];
  return { game, code: `s${i}`, name: `${cap(pickSkewed(ADJ))} ${cap(pickSkewed(PLACE))}`, cards: 0 };
});
const ARTISTS = Array.from({ length: 600 }, () => `${cap(pick(FIRST))} ${cap(pick(LAST))}`);

function* entries() {
  const figures = Math.floor(N * 0.08);
  const cards = N - figures - SETS.length;
  for (let i = 0; i < cards; i++) {
    const set = pick(SETS);
    set.cards += 1;
    const id = `${set.game}-${set.code}-${set.cards}`;
    const name = cardName(set.game);
    const number = set.game === 'onepiece' ? `OP${String(SETS.indexOf(set) % 12).padStart(2, '0')}-${String(set.cards).padStart(3, '0')}` : String(set.cards);
    // Popularity is heavy-tailed: a few cards are watched by thousands, most by a handful.
    const popularity = Math.floor(20000 * rand() ** 6);
    yield {
      kind: 'card', id, game: set.game, name, setName: set.name, artist: pick(ARTISTS), number, popularity,
      summary: { id, game: set.game, name, setCode: set.code, setName: set.name, number, rarity: pick(['common', 'uncommon', 'rare', 'mythic']), imageUrl: `https://img.example/${id}.jpg`, marketCents: Math.floor(rand() * 50000) },
    };
  }
  for (let i = 0; i < figures; i++) {
    const id = `fig-${i}`;
    const name = `${cap(pickSkewed(ADJ))} ${monsterName()} ${pick(['Plush', 'Figure', 'Mini', 'Statue', 'Keychain'])}`;
    yield { kind: 'figure', id, game: null, name, setName: `Series ${i % 200}`, artist: null, number: null, popularity: Math.floor(5000 * rand() ** 6), summary: { id, name, seriesId: `series-${i % 200}`, rarity: 'common', imageUrl: null, marketCents: 1299 } };
  }
  for (const s of SETS) {
    const id = `${s.game}-${s.code}`;
    yield { kind: 'set', id, game: s.game, name: s.name, setName: null, artist: null, number: null, popularity: Math.floor(50000 * rand() ** 3), summary: { id, game: s.game, code: s.code, name: s.name, cards: s.cards } };
  }
}

// ---------------------------------------------------------------------------------------------
// Build

const loadAtStart = loadAverage();
const dir = opts.keep ?? mkdtempSync(join(tmpdir(), 'bench-search-'));
mkdirSync(dir, { recursive: true });
const dbPath = join(dir, SEARCH_DB_FILE);
const names = []; // a sample of (game, name) to draw realistic queries from
let t0 = performance.now();
const builder = createSearchIndexBuilder(dbPath, { asOf: '2026-11-20' });
for (const e of entries()) {
  builder.add(e);
  if (names.length < 20000 || rand() < 0.01) names.push({ kind: e.kind, game: e.game, words: searchTokens(e.name) });
}
const addMs = performance.now() - t0;
t0 = performance.now();
builder.finish();
const finishMs = performance.now() - t0;
const sizeMb = statSync(dbPath).size / 1e6;

// ---------------------------------------------------------------------------------------------
// Query mix

const letters = 'bcdfghjklmnpqrstvwxz';
function makeQuery(cls) {
  const sample = () => pick(names);
  const word = () => pick(sample().words.filter((w) => w.length >= 2).concat(['bolt']));
  switch (cls) {
    case 'prefix2': return word().slice(0, 2);
    case 'prefix3-4': { const w = word(); return w.slice(0, 3 + Math.floor(rand() * 2)); }
    case 'word': return word();
    case 'two-words': {
      const s = sample();
      if (s.words.length < 2) return `${s.words[0] ?? 'ancient'} ${word().slice(0, 3)}`;
      const i = Math.floor(rand() * (s.words.length - 1));
      const second = s.words[i + 1];
      return `${s.words[i]} ${rand() < 0.5 ? second : second.slice(0, Math.max(2, Math.ceil(second.length / 2)))}`;
    }
    case 'game-prefixed': {
      const s = pick(names.filter((n) => n.kind === 'card').slice(0, 500));
      const w = pick(s.words);
      return `${s.game}:${rand() < 0.5 ? w : w.slice(0, 2 + Math.floor(rand() * 2))}`;
    }
    case 'no-hit': { let s = ''; for (let i = 0; i < 4 + Math.floor(rand() * 3); i++) s += pick(letters); return s; }
    default: throw new Error(cls);
  }
}
// Weights of a type-ahead-heavy partner mix.
const MIX = [['prefix2', 20], ['prefix3-4', 25], ['word', 20], ['two-words', 15], ['game-prefixed', 12], ['no-hit', 8]];
const totalWeight = MIX.reduce((s, [, w]) => s + w, 0);
function drawClass() {
  let r = rand() * totalWeight;
  for (const [cls, w] of MIX) if ((r -= w) < 0) return cls;
  return MIX[0][0];
}
const workload = Array.from({ length: QUERIES }, () => { const cls = drawClass(); return { cls, q: makeQuery(cls) }; });
const warmup = Array.from({ length: Math.min(1000, QUERIES) }, () => makeQuery(drawClass()));

// ---------------------------------------------------------------------------------------------
// Run: engine (parse + plan + search) and route (in-process HTTP through Hono)

const index = openSearchIndex(dbPath);
const engine = (q) => index.search(planSearch(parseSearchQuery(q)), 1, 20);

const snapshotId = '20261120T020000Z-bench000';
const reader = { id: snapshotId, get: async () => null, searchDbPath: async () => dbPath };
const app = new Hono();
app.use('*', async (c, next) => { c.set('requestId', 'bench'); c.set('auth', { kind: 'internal' }); c.set('snapshotId', null); await next(); });
app.onError((err, c) => c.json({ error: err.code ?? 'internal', message: err.message }, err.status ?? 500));
const indexes = createSearchIndexCache();
// Only the search route is mounted, so its answer is the only dependency reached.
registerRoutes(app, catalogTable().filter((r) => r.path === '/v1/search'), { search: createSearchAnswer({ snapshot: async () => reader, indexes }) });

for (const q of warmup) engine(q);
for (const q of warmup.slice(0, 300)) await app.request(`/v1/search?q=${encodeURIComponent(q)}`);

const timings = { engine: new Map(), engineCpu: new Map(), route: new Map() };
const hits = new Map();
const push = (map, cls, ms) => {
  if (!map.has(cls)) map.set(cls, []);
  map.get(cls).push(ms);
};
for (const { cls, q } of workload) {
  // Wall time is what a caller sees; CPU time (this process, user + system) is what the query costs,
  // and stays meaningful when other processes share the cores.
  const cpu0 = process.cpuUsage();
  const s = process.hrtime.bigint();
  const result = engine(q);
  const ms = Number(process.hrtime.bigint() - s) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  push(timings.engine, cls, ms);
  push(timings.engineCpu, cls, (cpu.user + cpu.system) / 1000);
  hits.set(cls, (hits.get(cls) ?? 0) + (result.hits.length > 0 ? 1 : 0));
}
for (const { cls, q } of workload) {
  const s = process.hrtime.bigint();
  const res = await app.request(`/v1/search?q=${encodeURIComponent(q)}`);
  await res.arrayBuffer();
  const ms = Number(process.hrtime.bigint() - s) / 1e6;
  if (res.status !== 200) throw new Error(`route answered ${res.status} for ${q}`);
  push(timings.route, cls, ms);
}

// ---------------------------------------------------------------------------------------------
// Report

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const fmt = (n) => n.toFixed(2).padStart(7);
function table(label, byClass) {
  const lines = [`${label}: latency per query, ms`, `  ${'class'.padEnd(14)} ${'count'.padStart(6)} ${'hit%'.padStart(5)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'p99'.padStart(7)} ${'max'.padStart(7)}`];
  const all = [];
  for (const [cls] of MIX) {
    const list = (byClass.get(cls) ?? []).slice().sort((a, b) => a - b);
    if (list.length === 0) continue;
    all.push(...list);
    const hitPct = Math.round((100 * (hits.get(cls) ?? 0)) / list.length);
    lines.push(`  ${cls.padEnd(14)} ${String(list.length).padStart(6)} ${String(hitPct).padStart(5)} ${fmt(pct(list, 50))} ${fmt(pct(list, 95))} ${fmt(pct(list, 99))} ${fmt(list[list.length - 1])}`);
  }
  all.sort((a, b) => a - b);
  lines.push(`  ${'overall'.padEnd(14)} ${String(all.length).padStart(6)} ${''.padStart(5)} ${fmt(pct(all, 50))} ${fmt(pct(all, 95))} ${fmt(pct(all, 99))} ${fmt(all[all.length - 1])}`);
  return lines.join('\n');
}

const cpu = cpus();
console.log(`command: node scripts/bench-search.mjs ${process.argv.slice(2).join(' ')}`.trim());
console.log(`machine: ${cpu.length} x ${cpu[0]?.model ?? 'unknown cpu'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ${platform()} ${release()}, node ${process.version}, load average at start ${loadAtStart}, at end ${loadAverage()}`);
console.log(`index: ${N.toLocaleString('en-US')} entries (${SETS.length} sets), add ${(addMs / 1000).toFixed(1)} s + finish ${(finishMs / 1000).toFixed(1)} s, ${sizeMb.toFixed(1)} MB`);
console.log(`queries: ${QUERIES} after ${warmup.length} warm-up, page 1, limit 20; examples: ${[...new Set(workload.slice(0, 8).map((w) => JSON.stringify(w.q)))].join(' ')}`);
console.log(table('engine (parse + plan + index.search), wall time', timings.engine));
console.log(table('engine, CPU time of this process (insensitive to other load on the machine)', timings.engineCpu));
console.log(table('route (in-process GET /v1/search: + envelope, JSON, ETag), wall time', timings.route));

index.close();
await indexes.close();
if (opts.keep === undefined) rmSync(dir, { recursive: true, force: true });
