import Database from 'better-sqlite3';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createObjectLookup, writeObjectIndex, type IndexRow } from '../../../snapshots/packs/object-index.js';
import { createPackReader } from '../../../snapshots/packs/pack-reader.js';
import { createPackWriter } from '../../../snapshots/packs/pack-writer.js';
import { tempDir } from '../../helpers/auth-fixtures.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe('object index', () => {
  it('when objects are packed and indexed then every key reads back its own bytes by (pack, offset, length), after a reopen', () => {
    const t = tempDir('catalog-index-');
    cleanups.push(t.cleanup);
    const packs = createPackWriter({ dir: join(t.dir, 'packs'), targetBytes: 50_000 });
    const objects = new Map<string, Buffer>();
    const rows: IndexRow[] = [];
    for (let i = 0; i < 300; i++) {
      const key = `v1/cards/card-${i}/30d.json.gz`;
      const bytes = randomBytes(200 + (i % 700));
      objects.set(key, bytes);
      const at = packs.append(bytes);
      rows.push({ key, pack: at.pack, offset: at.offset, length: at.length, sha256: createHash('sha256').update(bytes).digest('hex'), input: `in-${i}` });
    }
    const sealed = packs.finish();
    rows.sort((a, b) => (a.key < b.key ? -1 : 1));
    const file = join(t.dir, 'search.sqlite');
    const db = new Database(file);
    expect(writeObjectIndex(db, sealed.map((p) => ({ sha256: p.sha256, size: p.size })), rows)).toBe(300);
    db.close();

    const reopened = new Database(file, { readonly: true });
    const lookup = createObjectLookup(reopened);
    const reader = createPackReader({ dir: join(t.dir, 'packs') });
    expect(lookup.packs()).toEqual(sealed.map((p) => ({ sha256: p.sha256, size: p.size })));
    for (const [key, bytes] of objects) {
      const at = lookup.get(key)!;
      expect(at.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(reader.read(at.pack, at.offset, at.length).equals(bytes), key).toBe(true);
    }
    expect(lookup.get('v1/cards/card-300/30d.json.gz')).toBeNull();
    expect(lookup.get("v1/cards/' OR 1=1 --")).toBeNull();
    reader.close();
    reopened.close();
  });

  it('when the index has another version then opening it fails instead of misreading it', () => {
    const db = new Database(':memory:');
    writeObjectIndex(db, [], []);
    db.prepare("UPDATE object_index_meta SET value = '99' WHERE key = 'version'").run();
    expect(() => createObjectLookup(db)).toThrow(/version 99/);
    db.close();
  });
});
