/**
 * The privacy invariant (API.md §2.6): no user who did not opt into the showcase, and no anonymous
 * user, appears in any object of a compiled snapshot or in its search index — checked over every
 * byte the compile published.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { runCli, tempDir } from '../helpers/cli.js';
import { currentId, manifestEntries, storedObjects } from '../helpers/snapshot-files.js';

interface User { id: string; handle: string | null; displayName: string | null; showcase: boolean; anonymous: boolean }
interface Binder { id: string; userId: string; name: string; public: boolean }

let root: string;
let users: User[];
let binders: Binder[];

const ndjson = <T>(path: string): T[] => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);

beforeAll(async () => {
  const catalog = join(tempDir(), 'catalog');
  expect((await runCli(['generate', '--out', catalog, '--cards', '1500', '--seed', '11'])).code).toBe(0);
  root = tempDir();
  const r = await runCli(['compile', '--source', catalog, '--out', root]);
  expect(r.code, r.stderr).toBe(0);
  users = ndjson<User>(join(catalog, 'users.ndjson'));
  binders = ndjson<Binder>(join(catalog, 'binders.ndjson'));
});

describe('privacy invariant', () => {
  it('the generated catalog has all three kinds of users (otherwise this test proves nothing)', () => {
    expect(users.some((u) => u.showcase && !u.anonymous)).toBe(true);
    expect(users.some((u) => u.anonymous)).toBe(true);
    expect(users.some((u) => !u.showcase && !u.anonymous)).toBe(true);
  });

  it('no object and no search row names a user who did not opt in, nor their binders', () => {
    const isPublic = (u: User) => u.showcase && !u.anonymous && u.handle !== null;
    const publicIds = new Set(users.filter(isPublic).map((u) => u.id));
    const publicNames = new Set(users.filter(isPublic).map((u) => u.displayName));
    const hidden = users.filter((u) => !isPublic(u));
    // JSON-quoted forms, so a handle like "ash" does not match inside a card name.
    const needles = new Set<string>();
    for (const u of hidden) {
      needles.add(JSON.stringify(u.id));
      if (u.handle) needles.add(JSON.stringify(u.handle));
      if (u.displayName && !publicNames.has(u.displayName)) needles.add(JSON.stringify(u.displayName));
    }
    for (const b of binders) if (!publicIds.has(b.userId) || !b.public) needles.add(JSON.stringify(b.id));
    expect(needles.size).toBeGreaterThan(10);

    const dir = join(root, currentId(root)!);
    let objects = 0;
    let showcaseObjects = 0;
    for (const { key, bytes } of storedObjects(root)) {
      objects++;
      const text = gunzipSync(bytes).toString('utf8');
      if (key.startsWith('v1/u/')) showcaseObjects++;
      for (const n of needles) if (text.includes(n)) throw new Error(`${key} contains ${n}`);
    }
    expect(objects).toBeGreaterThan(1000);
    expect(showcaseObjects).toBeGreaterThan(0);

    const db = new Database(join(dir, 'search.sqlite'), { readonly: true });
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'").all() as { name: string }[];
    for (const { name } of tables) {
      for (const row of db.prepare(`SELECT * FROM "${name}"`).iterate() as Iterable<Record<string, unknown>>) {
        const text = JSON.stringify(row);
        for (const n of needles) if (text.includes(n.slice(1, -1)) && n.length > 8) throw new Error(`search table ${name} contains ${n}`);
      }
    }
    db.close();
  });

  it('only opted-in users have a showcase document', () => {
    const handles = new Set<string>();
    for (const { key } of manifestEntries(root)) {
      const m = /^v1\/u\/([^/]+)\.json\.gz$/.exec(key);
      if (m) handles.add(m[1]);
    }
    const allowed = new Set(users.filter((u) => u.showcase && !u.anonymous).map((u) => u.handle));
    expect(handles.size).toBeGreaterThan(0);
    for (const h of handles) expect(allowed.has(h)).toBe(true);
  });
});
