/**
 * The compile through the real CLI: determinism, incremental re-use, broken sources, verify, and the
 * atomic publish guarantee when a compile is killed part-way.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync, writeFileSync, readdirSync, existsSync, cpSync, createReadStream, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runCli, startCli, tempDir } from '../helpers/cli.js';
import Database from 'better-sqlite3';
import { SEARCH_DB_FILE, setPageKey } from '../../snapshots/keys.js';
import { currentId, indexEntries, manifestEntries, manifestHeader, readDoc } from '../helpers/snapshot-files.js';
import { expectSameAsFullCompile, STORED_CATALOG_NOTE, touchOnePercentOfPrices } from '../helpers/incremental.js';

let catalog: string;

/** Adds `by` cents to the last price of the first price line of `cat` that `pick` accepts; returns that line's record. */
function bumpLastPrice(cat: string, pick: (rec: { entity: string; id: string }) => boolean, by: number) {
  const lines = readFileSync(join(cat, 'prices.ndjson'), 'utf8').split('\n');
  const idx = lines.findIndex((l) => l.length > 0 && pick(JSON.parse(l)));
  const rec = JSON.parse(lines[idx]);
  rec.usdCents[rec.usdCents.length - 1] = (rec.usdCents[rec.usdCents.length - 1] ?? 0) + by;
  lines[idx] = JSON.stringify(rec);
  writeFileSync(join(cat, 'prices.ndjson'), lines.join('\n'));
  return rec;
}

/** A copy of the test catalog (to change) and a root with its first snapshot compiled. */
async function compiledCopy(): Promise<{ cat: string; root: string }> {
  const cat = join(tempDir(), 'catalog');
  cpSync(catalog, cat, { recursive: true });
  const root = tempDir();
  expect((await runCli(['compile', '--source', cat, '--out', root])).code).toBe(0);
  return { cat, root };
}

/** The change list of the current snapshot. */
function currentChanges(root: string): { key: string; change: string }[] {
  return readFileSync(join(root, currentId(root)!, 'changes.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
}

beforeAll(async () => {
  catalog = join(tempDir(), 'catalog');
  const r = await runCli(['generate', '--out', catalog, '--cards', '800', '--seed', '3']);
  expect(r.code, r.stderr).toBe(0);
});

describe('catalog compile', () => {
  it('publishes a snapshot, prints a one-line summary, and logs its phases with counts as JSON lines when not on a terminal', async () => {
    const root = tempDir();
    const r = await runCli(['compile', '--source', catalog, '--out', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toMatch(/^compiled \d{8}T\d{6}Z-[0-9a-f]{8}: \d+ objects \(\d+ new, 0 changed, 0 unchanged, 0 removed\)/);
    const log = r.stderr.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const finished = log.filter((l) => l.msg === 'phase finished');
    expect(finished.map((l) => l.phase)).toEqual(['read catalog', 'previous snapshot', 'catalog state', 'cards and figures', 'search index', 'aggregate documents', 'object index', 'search index finish', 'bulk files', 'publish']);
    expect(log.filter((l) => l.msg === 'phase started').map((l) => l.phase)).toEqual(finished.map((l) => l.phase));
    for (const l of finished) expect(l).toMatchObject({ level: 'info', count: expect.any(Number), durationMs: expect.any(Number), time: expect.any(String) });
    const cardsPhase = finished.find((l) => l.phase === 'cards and figures')!;
    expect(cardsPhase.count).toBe(cardsPhase.total);
    const summary = log.at(-1)!;
    expect(summary).toMatchObject({ msg: 'compile finished', new: expect.any(Number), changed: 0, rejects: 0, cards: 800 });
    expect(r.stdout).toContain(`compiled ${String(summary.snapshotId)}: ${String(summary.objects)} objects`);
    const id = currentId(root)!;
    expect(existsSync(join(root, id, 'search.sqlite'))).toBe(true);
    const keys = manifestEntries(root).map((e) => e.key);
    for (const range of ['30d', '3mo', '6mo', '12mo', 'all']) expect(keys.some((k) => k.endsWith(`/${range}.json.gz`) && k.startsWith('v1/cards/'))).toBe(true);
    expect(keys).toContain('v1/catalog/summary.json.gz');
    expect(readDoc(root, 'v1/catalog/summary.json.gz').kind).toBe('catalogSummary');
  });

  it('when CATALOG_COMPILE_TIMINGS=1 then stderr lists wall and cpu time, GC pauses and memory of every phase', async () => {
    const root = tempDir();
    const r = await runCli(['compile', '--source', catalog, '--out', root], { env: { CATALOG_COMPILE_TIMINGS: '1' } });
    expect(r.code, r.stderr).toBe(0);
    // stderr also carries the JSON phase log (not a terminal); the timing lines are the `phase …` ones.
    const phases = r.stderr.trim().split('\n').filter((l) => l.startsWith('phase ')).map((l) => /^phase (.+): [\d.]+ s wall, [\d.]+ s cpu \(user [\d.]+, system [\d.]+\); gc [\d.]+ s; peak \d+ MiB, heap \d+ MiB$/.exec(l)?.[1]);
    expect(phases).toEqual(['read catalog', 'previous snapshot', 'catalog state', 'cards and figures', 'search index', 'aggregate documents', 'object index', 'search index finish', 'bulk files', 'publish']);
  });

  it('when the same input is compiled twice then every object is byte-identical (same hashes)', async () => {
    const a = tempDir();
    const b = tempDir();
    expect((await runCli(['compile', '--source', catalog, '--out', a])).code).toBe(0);
    expect((await runCli(['compile', '--source', catalog, '--out', b, '--workers', '1'])).code).toBe(0);
    const ea = manifestEntries(a).map((e) => `${e.key} ${e.sha256} ${e.size}`);
    const eb = manifestEntries(b).map((e) => `${e.key} ${e.sha256} ${e.size}`);
    expect(ea.length).toBeGreaterThan(4000);
    expect(ea).toEqual(eb);
  });

  it('when nothing changed then the next compile re-uses every object and reports them unchanged', async () => {
    const root = tempDir();
    expect((await runCli(['compile', '--source', catalog, '--out', root])).code).toBe(0);
    const first = currentId(root)!;
    const r = await runCli(['compile', '--source', catalog, '--out', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\(0 new, 0 changed, \d+ unchanged, 0 removed\)/);
    const second = currentId(root)!;
    expect(second).not.toBe(first);
    expect(manifestHeader(root).previous).toBe(first);
    expect(readFileSync(join(root, second, 'changes.ndjson'), 'utf8')).toBe('');
  });

  it('when one price series changes then only the documents that depend on it change, and the change list names them', async () => {
    const { cat, root } = await compiledCopy();
    const rec = bumpLastPrice(cat, (r) => r.entity === 'card', 12345);
    const r = await runCli(['compile', '--source', cat, '--out', root]);
    expect(r.code, r.stderr).toBe(0);
    const changes = currentChanges(root);
    const changedKeys = changes.map((c) => c.key);
    for (const range of ['30d', '3mo', '6mo', '12mo', 'all']) expect(changedKeys).toContain(`v1/cards/${rec.id}/${range}.json.gz`);
    const cardChanges = changedKeys.filter((k: string) => k.startsWith('v1/cards/'));
    expect(cardChanges).toHaveLength(5);
    expect(changes.every((c) => c.change === 'changed')).toBe(true);
    expect(readDoc(root, `v1/cards/${rec.id}/30d.json.gz`).data.prices.marketCents).toBe(rec.usdCents[rec.usdCents.length - 1]);
  });

  it('when prices, a card, a user and a binder change then the incremental compile holds exactly the objects of a full compile of the changed catalog', async () => {
    const { cat, root } = await compiledCopy();
    touchOnePercentOfPrices(cat);
    // A card's artist (two artists' pages and its set page), the last card removed, a public user's
    // display name (their showcase) and a binder's items (its owner's binder pages).
    const editLine = (file: string, pick: (rec: any) => boolean, edit: (rec: any) => unknown | null, optional = false) => {
      const lines = readFileSync(join(cat, file), 'utf8').split('\n');
      const idx = lines.findIndex((l) => l.length > 0 && pick(JSON.parse(l)));
      if (idx < 0 && optional) return;
      expect(idx, `${file} has a line to edit`).toBeGreaterThanOrEqual(0);
      const next = edit(JSON.parse(lines[idx]));
      if (next === null) lines.splice(idx, 1);
      else lines[idx] = JSON.stringify(next);
      writeFileSync(join(cat, file), lines.join('\n'));
    };
    editLine('cards.ndjson', (c) => c.artist !== null, (c) => ({ ...c, artist: 'Incremental Tester' }));
    // A card no binder or activity event names (a record naming an unknown card is a bad record).
    const named = ['binders.ndjson', 'activity.ndjson'].map((f) => readFileSync(join(cat, f), 'utf8')).join('\n');
    const gone = readFileSync(join(cat, 'cards.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).id).filter((id) => !named.includes(`"${id}"`)).at(-1);
    editLine('cards.ndjson', (c) => c.id === gone, () => null);
    editLine('prices.ndjson', (p) => p.entity === 'card' && p.id === gone, () => null, true);
    editLine('users.ndjson', (u) => u.showcase && !u.anonymous && u.handle !== null, (u) => ({ ...u, displayName: 'Renamed' }));
    editLine('binders.ndjson', (b) => b.public && b.items.length > 1, (b) => ({ ...b, items: b.items.slice(1) }));

    const r = await runCli(['compile', '--source', cat, '--out', root]);
    expect(r.code, r.stderr).toBe(0);
    // The new artist's page is new; the removed card's five range objects are removed.
    expect(r.stdout).toMatch(/\(1 new, \d+ changed, \d+ unchanged, 5 removed\)/);
    // A record changed: the search index is built whole.
    expect(r.stderr).not.toContain('search index: ');
    await expectSameAsFullCompile(cat, root);
  });

  it('when only prices change then the search index is a copy of the previous one with those entries updated, the same as a full build', async () => {
    const { cat, root } = await compiledCopy();
    const changed = touchOnePercentOfPrices(cat);
    const r = await runCli(['compile', '--source', cat, '--out', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`search index: ${changed} entries updated in a copy of the previous index`);
    await expectSameAsFullCompile(cat, root);
  });

  it('when the previous search index has no entity index (an older compiler) then the copy gets one and is updated the same', async () => {
    const { cat, root } = await compiledCopy();
    const entityIndex = (id: string) => {
      const db = new Database(join(root, id, SEARCH_DB_FILE), { readonly: true });
      try {
        return db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'search_entries_entity'").pluck().get();
      } finally {
        db.close();
      }
    };
    const first = currentId(root)!;
    expect(entityIndex(first)).toBe(1);
    const db = new Database(join(root, first, SEARCH_DB_FILE));
    db.exec('DROP INDEX search_entries_entity');
    db.close();
    const changed = touchOnePercentOfPrices(cat);
    const r = await runCli(['compile', '--source', cat, '--out', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`search index: ${changed} entries updated in a copy of the previous index`);
    expect(entityIndex(currentId(root)!)).toBe(1);
    await expectSameAsFullCompile(cat, root);
  });

  it('when a printing changes then its oracle concept is rendered again and every other oracle document is re-used', async () => {
    const { cat, root } = await compiledCopy();
    const first = currentId(root)!;
    const cardLines = readFileSync(join(cat, 'cards.ndjson'), 'utf8').split('\n');
    const idx = cardLines.findIndex((l) => l.length > 0 && JSON.parse(l).oracleId !== null);
    const card = JSON.parse(cardLines[idx]);
    card.number = `${card.number}x`;
    cardLines[idx] = JSON.stringify(card);
    writeFileSync(join(cat, 'cards.ndjson'), cardLines.join('\n'));
    // A price change of a card of another concept: its oracle document changes too, and only those two.
    const cardsById = new Map(cardLines.filter((l) => l.length > 0).map((l) => JSON.parse(l)).map((c) => [c.id, c]));
    const price = bumpLastPrice(cat, (r) => {
      const c = cardsById.get(r.id);
      return r.entity === 'card' && c && c.oracleId !== null && c.oracleId !== card.oracleId;
    }, 4321);

    const r = await runCli(['compile', '--source', cat, '--out', root]);
    expect(r.code, r.stderr).toBe(0);
    const changes = currentChanges(root);
    const oracleChanges = changes.map((c) => c.key).filter((k) => k.startsWith('v1/oracle/')).sort();
    const pricedOracle = cardsById.get(price.id).oracleId;
    expect(oracleChanges).toEqual([`v1/oracle/${card.oracleId}.json.gz`, `v1/oracle/${pricedOracle}.json.gz`].sort());
    const doc = readDoc(root, `v1/oracle/${card.oracleId}.json.gz`);
    expect(doc.data.printings.find((p: { id: string }) => p.id === card.id).number).toBe(card.number);
    const priced = readDoc(root, `v1/oracle/${pricedOracle}.json.gz`);
    expect(priced.data.printings.find((p: { id: string }) => p.id === price.id).marketCents).toBe(price.usdCents[price.usdCents.length - 1]);
    expect(manifestHeader(root).previous).toBe(first);
    expect(r.stdout).toMatch(/\(0 new, \d+ changed, \d+ unchanged, 0 removed\)/);
  });

  it('when a price series is marked synthetic then its card document, set page item and search result say so, and an observed one does not', async () => {
    const cat = join(tempDir(), 'catalog');
    cpSync(catalog, cat, { recursive: true });
    const lines = readFileSync(join(cat, 'prices.ndjson'), 'utf8').split('\n');
    const cardLines = lines.map((l, i) => [l, i] as const).filter(([l]) => l.includes('"entity":"card"'));
    const [madeUpIdx, observedIdx] = [cardLines[0][1], cardLines[1][1]];
    const madeUp = { ...JSON.parse(lines[madeUpIdx]), synthetic: true };
    const observed = JSON.parse(lines[observedIdx]);
    lines[madeUpIdx] = JSON.stringify(madeUp);
    writeFileSync(join(cat, 'prices.ndjson'), lines.join('\n'));
    const root = tempDir();
    const r = await runCli(['compile', '--source', cat, '--out', root]);
    expect(r.code, r.stderr).toBe(0);
    const cards = new Map(readFileSync(join(cat, 'cards.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).map((c) => [c.id, c]));
    const setItem = (id: string) => {
      const c = cards.get(id);
      for (let page = 1; ; page++) {
        const doc = readDoc(root, setPageKey(c.game, c.setCode, page));
        const item = doc.data.find((i: { id: string }) => i.id === id);
        if (item || !doc.page.hasMore) return item;
      }
    };
    const search = new Database(join(root, currentId(root)!, SEARCH_DB_FILE), { readonly: true });
    const searchItem = (id: string) => JSON.parse((search.prepare("SELECT summary FROM search_entries WHERE kind = 'card' AND id = ?").get(id) as { summary: string }).summary);
    try {
      for (const [rec, synthetic] of [[madeUp, true], [observed, false]] as const) {
        expect(readDoc(root, `v1/cards/${rec.id}/30d.json.gz`).data.prices.synthetic, rec.id).toBe(synthetic);
        expect(setItem(rec.id), rec.id).toMatchObject({ id: rec.id, priceSynthetic: synthetic });
        expect(searchItem(rec.id), rec.id).toMatchObject({ id: rec.id, priceSynthetic: synthetic });
      }
    } finally {
      search.close();
    }
  });

  it('when a record is broken then the compile names file and line, exits non-zero and publishes nothing', async () => {
    const cat = join(tempDir(), 'catalog');
    cpSync(catalog, cat, { recursive: true });
    const lines = readFileSync(join(cat, 'cards.ndjson'), 'utf8').split('\n');
    lines[2] = lines[2].replace(/"name":"[^"]*",/, '');
    writeFileSync(join(cat, 'cards.ndjson'), lines.join('\n'));
    const root = tempDir();
    const r = await runCli(['compile', '--source', cat, '--out', root]);
    expect(r.code).toBe(65);
    expect(r.stderr).toContain('cards.ndjson:3:');
    expect(r.stderr).toContain('name');
    expect(r.stderr).toContain('--max-rejects');
    expect(currentId(root)).toBeNull();
    expect(readdirSync(root).filter((n) => /^\d{8}T/.test(n))).toEqual([]);

    const ok = await runCli(['compile', '--source', cat, '--out', root, '--max-rejects', '5']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toContain('cards.ndjson:3:');
    expect(ok.stdout).toMatch(/records skipped/);
    expect(currentId(root)).not.toBeNull();
  });

  it('when a price line near the end is broken then the compile fails naming it and removes its half-written folder', async () => {
    const root = tempDir();
    expect((await runCli(['compile', '--source', catalog, '--out', root])).code).toBe(0);
    const before = currentId(root)!;
    const cat = join(tempDir(), 'catalog');
    cpSync(catalog, cat, { recursive: true });
    // Price lines are read during the entity phase, so the objects of every card before it are
    // already written into the new folder when this one is met.
    const lines = readFileSync(join(cat, 'prices.ndjson'), 'utf8').split('\n');
    const last = lines.findLastIndex((l) => l.includes('"entity":"card"'));
    lines[last] = lines[last].replace(/"usdCents":\[/, '"usdCents":["x",');
    writeFileSync(join(cat, 'prices.ndjson'), lines.join('\n'));
    const r = await runCli(['compile', '--source', cat, '--out', root]);
    expect(r.code).toBe(65);
    expect(r.stderr).toContain(`prices.ndjson:${last + 1}:`);
    expect(currentId(root)).toBe(before);
    expect(readdirSync(root).filter((n) => /^\d{8}T/.test(n))).toEqual([before]);
  });

  it('when a compile is killed part-way then current still names the previous complete snapshot', async () => {
    const root = tempDir();
    expect((await runCli(['compile', '--source', catalog, '--out', root])).code).toBe(0);
    const before = currentId(root)!;
    const big = join(tempDir(), 'catalog');
    expect((await runCli(['generate', '--out', big, '--cards', '6000', '--seed', '9'])).code).toBe(0);
    const child = startCli(['compile', '--source', big, '--out', root, '--workers', '1']);
    // Kill it once the new snapshot's first pack is being written but before it can finish.
    const packing = () => existsSync(join(root, 'packs')) && readdirSync(join(root, 'packs')).some((n) => n.startsWith('.tmp-'));
    const killed = await new Promise<boolean>((resolve) => {
      const timer = setInterval(() => {
        const partial = readdirSync(root).filter((n) => /^\d{8}T/.test(n) && n !== before);
        if (partial.length > 0 && packing()) {
          clearInterval(timer);
          child.kill('SIGKILL');
          resolve(true);
        }
      }, 5);
      child.on('exit', () => {
        clearInterval(timer);
        resolve(false);
      });
    });
    expect(killed).toBe(true);
    await new Promise((r) => child.once('exit', r).once('close', r));
    expect(currentId(root)).toBe(before);
    const v = await runCli(['verify', root]);
    expect(v.code, v.stderr).toBe(0);
    // The next compile succeeds and removes the debris of the killed one.
    expect((await runCli(['compile', '--source', catalog, '--out', root])).code).toBe(0);
    const folders = readdirSync(root).filter((n) => /^\d{8}T/.test(n));
    expect(folders.every((f) => existsSync(join(root, f, 'manifest.ndjson')))).toBe(true);
    // ...and the packs it left: only packs a kept manifest lists remain, no temporary one.
    const listed = new Set(folders.flatMap((f) => manifestHeader(root, f).packs.map((p: { sha256: string }) => `${p.sha256}.pack`)));
    expect(readdirSync(join(root, 'packs')).sort()).toEqual([...listed].sort());
  });

  it('compiles the same catalog read over HTTP into the same objects as from the folder', async () => {
    const server = createServer((req, res) => {
      const name = (req.url ?? '/').slice(1);
      if (!/^[a-z-]+\.(ndjson|json)$/.test(name) || !existsSync(join(catalog, name))) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      createReadStream(join(catalog, name)).pipe(res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const a = tempDir();
      const b = tempDir();
      const viaHttp = await runCli(['compile', '--source', `http://127.0.0.1:${port}/`, '--out', a]);
      expect(viaHttp.code, viaHttp.stderr).toBe(0);
      expect((await runCli(['compile', '--source', catalog, '--out', b])).code).toBe(0);
      expect(manifestEntries(a).map((e) => e.sha256)).toEqual(manifestEntries(b).map((e) => e.sha256));
      // The downloaded files hash as the folder's do: the next compile over HTTP takes the stored catalog.
      const again = await runCli(['compile', '--source', `http://127.0.0.1:${port}/`, '--out', a]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain(STORED_CATALOG_NOTE);
      expect(manifestEntries(a).map((e) => e.sha256)).toEqual(manifestEntries(b).map((e) => e.sha256));
    } finally {
      server.close();
    }
  });

  it('keeps only the last N snapshots', async () => {
    const root = tempDir();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      expect((await runCli(['compile', '--source', catalog, '--out', root, '--keep', '2'])).code).toBe(0);
      ids.push(currentId(root)!);
    }
    expect(readdirSync(root).filter((n) => /^\d{8}T/.test(n)).sort()).toEqual(ids.slice(1));
    // The pruned snapshot shared its packs with the kept ones: those packs are still there and whole.
    const verify = await runCli(['verify', root]);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toMatch(/objects verified/);
  });
});

describe('catalog verify', () => {
  it('passes on a fresh snapshot and names a changed or missing object', async () => {
    const root = tempDir();
    expect((await runCli(['compile', '--source', catalog, '--out', root])).code).toBe(0);
    const ok = await runCli(['verify', root]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/objects verified/);
    // One byte of one object changed inside its pack: both levels fail, and the object is named.
    const key = 'v1/catalog/summary.json.gz';
    const at = indexEntries(root)!.find((e) => e.key === key)!;
    const pack = join(root, 'packs', `${at.pack}.pack`);
    const bytes = readFileSync(pack);
    bytes[at.offset + 20] ^= 0xff;
    writeFileSync(pack, bytes);
    const bad = await runCli(['verify', root]);
    expect(bad.code).toBe(65);
    expect(bad.stderr).toContain(`${key}: sha256 differs from the index`);
    expect(bad.stderr).toContain(`pack ${at.pack}: its bytes do not hash to its name`);
    rmSync(pack);
    const missing = await runCli(['verify', root]);
    expect(missing.code).toBe(65);
    expect(missing.stderr).toContain(`pack ${at.pack}: missing`);
  });

  it('fails with a clear message when nothing is published, also when the root is a file', async () => {
    const r = await runCli(['verify', tempDir()]);
    expect(r.code).toBe(66);
    expect(r.stderr).toMatch(/no snapshot is published/);
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, 'x');
    const f = await runCli(['verify', file]);
    expect(f.code).toBe(66);
    expect(f.stderr).toContain(`no snapshot is published under ${file}`);
  });
});
