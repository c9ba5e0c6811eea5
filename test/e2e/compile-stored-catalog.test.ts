/**
 * The catalog stored beside each snapshot (compile/stored-catalog.ts), through the real CLI: taken
 * when the catalog files but prices are byte-identical, never when one changed or the file is
 * damaged, its rejects replayed under the new --max-rejects, and never part of what is published;
 * and the bulk files' segments kept beside it (compiler/bulk/segment-state.ts).
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { currentId, manifestHeader } from '../helpers/snapshot-files.js';
import { expectSameAsFullCompile, STORED_CATALOG_NOTE, touchOnePercentOfPrices } from '../helpers/incremental.js';
import { inputOfSegments, readSegmentState, SEGMENT_STATE_FILE } from '../../compiler/bulk/segment-state.js';

const STATE = 'catalog.state';
const GROUPS = 'card-groups.state';
const GROUPS_NOTE = 'the cards grouped by set, artist and oracle concept taken from the previous snapshot';
let catalog: string;

beforeAll(async () => {
  catalog = join(tempDir(), 'catalog');
  const r = await runCli(['generate', '--out', catalog, '--cards', '600', '--seed', '11']);
  expect(r.code, r.stderr).toBe(0);
});

async function compiledCopy(...extra: string[]): Promise<{ cat: string; root: string }> {
  const cat = join(tempDir(), 'catalog');
  cpSync(catalog, cat, { recursive: true });
  const root = tempDir();
  const r = await runCli(['compile', '--source', cat, '--out', root, ...extra]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).not.toContain(STORED_CATALOG_NOTE);
  return { cat, root };
}

const statePath = (root: string) => join(root, currentId(root)!, STATE);
const currentChanges = (root: string) =>
  readFileSync(join(root, currentId(root)!, 'changes.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { key: string; change: string });

describe('the stored catalog', () => {
  it('when only prices changed then the catalog is taken from the current snapshot\'s file, the entities of unchanged lines are re-used by them, and the snapshot equals a full compile', async () => {
    const { cat, root } = await compiledCopy();
    const before = statePath(root);
    const inode = statSync(before).ino;
    const groupsBefore = join(root, currentId(root)!, GROUPS);
    const groupsInode = statSync(groupsBefore).ino;
    const changed = touchOnePercentOfPrices(cat);
    // One line removed (its card has no price any more) and two swapped (unchanged, in another order).
    const lines = readFileSync(join(cat, 'prices.ndjson'), 'utf8').split('\n').filter((l) => l.length > 0);
    lines.splice(1, 1);
    [lines[2], lines[3]] = [lines[3], lines[2]];
    writeFileSync(join(cat, 'prices.ndjson'), `${lines.join('\n')}\n`);
    const r = await runCli(['compile', '--source', cat, '--out', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(STORED_CATALOG_NOTE);
    expect(r.stderr).toContain(`cards and figures: ${lines.length - changed} re-used with the input stored beside their unchanged price line`);
    // Most aggregate documents are made from no changed card or figure: kept without their inputs computed.
    const kept = Number(/aggregate documents: (\d+) made from no changed card or figure kept as they were/.exec(r.stderr)?.[1]);
    expect(kept).toBeGreaterThan(0);
    // The same file again, linked, not written a second time; the previous snapshot's name for it is gone.
    expect(statePath(root)).not.toBe(before);
    expect(statSync(statePath(root)).ino).toBe(inode);
    expect(existsSync(before)).toBe(false);
    // So are the card groups of the set, artist and oracle pages (compile/card-groups.ts).
    expect(r.stderr).toContain(GROUPS_NOTE);
    expect(statSync(join(root, currentId(root)!, GROUPS)).ino).toBe(groupsInode);
    expect(existsSync(groupsBefore)).toBe(false);
    // The search index was a copy of the previous one made while the prices streamed, then updated;
    // no copy is left in the root (compile/prefetch.ts).
    expect(r.stderr).toMatch(/search index: \d+ entries updated in a copy of the previous index/);
    expect(existsSync(join(root, '.compile-prefetch'))).toBe(false);
    await expectSameAsFullCompile(cat, root);
  });

  it('when the current snapshot\'s card groups are damaged then they are made again and the snapshot equals a full compile', async () => {
    const { cat, root } = await compiledCopy();
    const path = join(root, currentId(root)!, GROUPS);
    const bytes = readFileSync(path);
    bytes[bytes.length - 3] ^= 0xff;
    writeFileSync(path, bytes);
    touchOnePercentOfPrices(cat);
    const r = await runCli(['compile', '--source', cat, '--out', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(STORED_CATALOG_NOTE);
    expect(r.stderr).not.toContain(GROUPS_NOTE);
    // Written whole for the next compile, which takes them.
    touchOnePercentOfPrices(cat);
    const again = await runCli(['compile', '--source', cat, '--out', root]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(GROUPS_NOTE);
    await expectSameAsFullCompile(cat, root);
  });

  it('when a killed compile left its background copies in the root then the next compile starts from fresh ones', async () => {
    const { cat, root } = await compiledCopy();
    touchOnePercentOfPrices(cat);
    // What a compile killed mid-copy leaves: truncated copies under the names the next one uses.
    mkdirSync(join(root, '.compile-prefetch'));
    writeFileSync(join(root, '.compile-prefetch', 'objects.sqlite'), 'SQLite format 3\u0000 cut short');
    writeFileSync(join(root, '.compile-prefetch', 'search.sqlite'), '');
    const r = await runCli(['compile', '--source', cat, '--out', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(STORED_CATALOG_NOTE);
    expect(existsSync(join(root, '.compile-prefetch'))).toBe(false);
    const v = await runCli(['verify', root]);
    expect(v.code, v.stderr).toBe(0);
    await expectSameAsFullCompile(cat, root);
  });

  it('when a catalog file but prices changed then it is read again and a new file is stored', async () => {
    const { cat, root } = await compiledCopy();
    const before = readFileSync(statePath(root));
    const users = readFileSync(join(cat, 'users.ndjson'), 'utf8').split('\n');
    const u = JSON.parse(users[0]);
    users[0] = JSON.stringify({ ...u, displayName: `${u.displayName ?? 'someone'} renamed` });
    writeFileSync(join(cat, 'users.ndjson'), users.join('\n'));
    const r = await runCli(['compile', '--source', cat, '--out', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain(STORED_CATALOG_NOTE);
    // Another catalog: every entity's input is fingerprinted again, none is re-used by its line alone.
    expect(r.stderr).not.toContain('re-used with the input stored');
    // Nor is any aggregate document kept without its input computed: the user may be in it.
    expect(r.stderr).not.toContain('made from no changed card or figure kept');
    expect(readFileSync(statePath(root)).equals(before)).toBe(false);
    // Only the current snapshot keeps one: the previous snapshot's was deleted once this one was published.
    const ids = readdirSync(root).filter((n) => /^\d{8}T/.test(n)).sort();
    expect(ids).toHaveLength(2);
    expect(existsSync(join(root, ids[0], STATE))).toBe(false);
    expect(existsSync(join(root, ids[1], STATE))).toBe(true);
    // And the file stored for the changed catalog is the one the next compile takes.
    touchOnePercentOfPrices(cat);
    const next = await runCli(['compile', '--source', cat, '--out', root]);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toContain(STORED_CATALOG_NOTE);
    await expectSameAsFullCompile(cat, root);
  });

  it('when a card changed but not its price line then the card is rendered again: an unchanged line alone does not re-use it', async () => {
    const { cat, root } = await compiledCopy();
    const priced = new Set(readFileSync(join(cat, 'prices.ndjson'), 'utf8').split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l).id));
    const cards = readFileSync(join(cat, 'cards.ndjson'), 'utf8').split('\n');
    const at = cards.findIndex((l) => l.length > 0 && priced.has(JSON.parse(l).id));
    const card = JSON.parse(cards[at]);
    cards[at] = JSON.stringify({ ...card, name: `${card.name} (renamed)` });
    writeFileSync(join(cat, 'cards.ndjson'), cards.join('\n'));
    const r = await runCli(['compile', '--source', cat, '--out', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('re-used with the input stored');
    expect(currentChanges(root)).toContainEqual({ key: `v1/cards/${card.id}/30d.json.gz`, change: 'changed' });
    await expectSameAsFullCompile(cat, root);
  });

  it('when the sets changed then their cards are rendered again from their unchanged price lines, read back before the next lines replace their bytes', async () => {
    const { cat, root } = await compiledCopy();
    // A price file of many read chunks (256 KiB each), so a line known from the previous compile is
    // long gone from the read buffer by the time its card is rendered.
    expect(statSync(join(cat, 'prices.ndjson')).size).toBeGreaterThan(1024 * 1024);
    // Every set renamed: every card is rendered again, wherever its line is in the file.
    const sets = readFileSync(join(cat, 'sets.ndjson'), 'utf8').split('\n');
    writeFileSync(join(cat, 'sets.ndjson'), sets.map((l) => (l.length > 0 ? JSON.stringify({ ...JSON.parse(l), name: 'Renamed' }) : l)).join('\n'));
    const r = await runCli(['compile', '--source', cat, '--out', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/price lines: \d+ of \d+ unchanged/);
    await expectSameAsFullCompile(cat, root);
  });

  it('when the file is damaged or cut short then the catalog is read from its files, and the compile is the same', async () => {
    const { cat, root } = await compiledCopy();
    const path = statePath(root);
    const bytes = readFileSync(path);
    bytes[Math.floor(bytes.length / 2)] ^= 0xff;
    writeFileSync(path, bytes);
    touchOnePercentOfPrices(cat);
    const damaged = await runCli(['compile', '--source', cat, '--out', root]);
    expect(damaged.code, damaged.stderr).toBe(0);
    expect(damaged.stderr).not.toContain(STORED_CATALOG_NOTE);
    await expectSameAsFullCompile(cat, root);

    writeFileSync(statePath(root), readFileSync(statePath(root)).subarray(0, 5000));
    touchOnePercentOfPrices(cat);
    const short = await runCli(['compile', '--source', cat, '--out', root]);
    expect(short.code, short.stderr).toBe(0);
    expect(short.stderr).not.toContain(STORED_CATALOG_NOTE);
    await expectSameAsFullCompile(cat, root);
  });

  it('when the catalog had a tolerated bad record then it is reported again, and a lower --max-rejects fails as reading would', async () => {
    const cat = join(tempDir(), 'catalog');
    cpSync(catalog, cat, { recursive: true });
    const lines = readFileSync(join(cat, 'cards.ndjson'), 'utf8').trimEnd().split('\n').length;
    appendFileSync(join(cat, 'cards.ndjson'), '{"id":"broken-card"}\n');
    const root = tempDir();
    const first = await runCli(['compile', '--source', cat, '--out', root, '--max-rejects', '1']);
    expect(first.code, first.stderr).toBe(0);
    const warning = `cards.ndjson:${lines + 1}`;
    expect(first.stderr).toContain(warning);

    touchOnePercentOfPrices(cat);
    const again = await runCli(['compile', '--source', cat, '--out', root, '--max-rejects', '1']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(STORED_CATALOG_NOTE);
    expect(again.stderr).toContain(warning);

    const published = currentId(root);
    touchOnePercentOfPrices(cat);
    const strict = await runCli(['compile', '--source', cat, '--out', root]);
    expect(strict.code).not.toBe(0);
    expect(strict.stderr).toContain('more than --max-rejects allows (0)');
    expect(strict.stderr).toContain(warning);
    expect(currentId(root)).toBe(published);
  });

  it('is not part of the snapshot: no manifest lists it, and verify passes beside it', async () => {
    const { root } = await compiledCopy();
    expect(statSync(statePath(root)).size).toBeGreaterThan(0);
    const header = manifestHeader(root)!;
    const named = JSON.stringify(header);
    expect(named).not.toContain(STATE);
    const verify = await runCli(['verify', root]);
    expect(verify.code, verify.stderr).toBe(0);
  });
});

describe('the bulk files\' segments kept for the next compile', () => {
  it('when only prices changed then the current snapshot keeps the segments of its document bulk files, which give their input fingerprints; the previous snapshot no longer keeps its own, and no manifest lists them', async () => {
    const { cat, root } = await compiledCopy();
    const first = currentId(root)!;
    expect(existsSync(join(root, first, SEGMENT_STATE_FILE))).toBe(true);
    touchOnePercentOfPrices(cat);
    const r = await runCli(['compile', '--source', cat, '--out', root]);
    expect(r.code, r.stderr).toBe(0);
    const dir = join(root, currentId(root)!);
    const header = manifestHeader(root)! as unknown as { bulk: { name: string; sha256: string; count: number; input: string }[] };
    for (const name of ['cards', 'figures', 'oracle']) {
      const file = header.bulk.find((b) => b.name === name)!;
      const state = readSegmentState(dir, name, file.sha256);
      expect(state, name).not.toBeNull();
      expect(state!.lines.reduce((a, b) => a + b, 0)).toBe(file.count);
      expect(file.input).toBe(inputOfSegments(state!.digests));
    }
    expect(existsSync(join(root, first, SEGMENT_STATE_FILE))).toBe(false);
    expect(JSON.stringify(header)).not.toContain(SEGMENT_STATE_FILE);
  });
});
