/**
 * A document bulk job given as what changed (compiler/bulk/patch-job.ts), completed from a real
 * previous object index (SQLite file): the same job `documentJob` makes from the whole list, and a
 * clear internal error when a changed key is not the previous snapshot's.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { writeObjectIndex, type IndexRow } from '../../../snapshots/packs/object-index.js';
import { documentPatch, patchedJob } from '../../../compiler/bulk/patch-job.js';
import { documentJob } from '../../../compiler/bulk/write-bulk.js';
import { digestHex } from '../../../compiler/bulk/digests.js';
import { tempDir } from '../../helpers/cli.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const PACKS = [{ sha256: sha('pack 0'), size: 1 << 20 }, { sha256: sha('pack 1'), size: 1 << 20 }];
const NEW_PACK = sha('pack 2');

/** A previous index with 40 cards (their five range objects each), two figures and an oracle concept. */
function previousIndex(): { path: string; rows: IndexRow[] } {
  const rows: IndexRow[] = [];
  for (let n = 0; n < 40; n++) {
    const id = `c${String(n).padStart(3, '0')}`;
    for (const range of ['12mo', '30d', '3mo', '6mo', 'all']) {
      rows.push({ key: `v1/cards/${id}/${range}.json.gz`, pack: n % 2, offset: n * 1000, length: 500 + n, sha256: sha(`${id}/${range}`), input: 'x' });
    }
  }
  rows.push({ key: 'v1/figures/f1.json.gz', pack: 1, offset: 7, length: 70, sha256: sha('f1'), input: null });
  rows.push({ key: 'v1/oracle/o1.json.gz', pack: 0, offset: 9, length: 90, sha256: sha('o1'), input: null });
  rows.sort((a, b) => (a.key < b.key ? -1 : 1));
  const path = join(tempDir(), 'objects.sqlite');
  const db = new Database(path);
  writeObjectIndex(db, PACKS, rows);
  db.close();
  return { path, rows };
}

describe('a patched document bulk job', () => {
  it('when a few cards changed then it is the job documentJob makes from every object, with the previous digests of the changed ones', () => {
    const { path, rows } = previousIndex();
    const changedKeys = new Set(['v1/cards/c003/30d.json.gz', 'v1/cards/c027/30d.json.gz']);
    const changed = [...changedKeys].map((key, i) => ({ key, size: 600 + i, digest: Buffer.from(sha(`new ${key}`), 'hex'), pack: NEW_PACK, offset: 100 * i }));
    const patched = patchedJob(documentPatch('cards', path, '/packs', changed).patch!);

    // What the main thread would have made from this compile's rows: the previous rows, the changed replaced.
    const now = rows.map((r) => {
      const c = changed.find((o) => o.key === r.key);
      return c ? { key: r.key, size: c.size, sha256: Buffer.from(c.digest).toString('hex'), pack: c.pack, offset: c.offset } : { key: r.key, size: r.length, sha256: r.sha256, pack: PACKS[r.pack].sha256, offset: r.offset };
    });
    const whole = documentJob('cards', now, rows.map((r): [string, { sha256: string }] => [r.key, { sha256: r.sha256 }]), { packsDir: '/packs', of: (e) => e });

    expect(patched.count).toBe(40);
    expect(patched.keys).toEqual(whole.keys);
    expect(patched.input).toBe(whole.input);
    expect(Buffer.from(patched.shas!).equals(Buffer.from(whole.shas!))).toBe(true);
    expect(patched.previous!.keys).toBe('same');
    expect(Buffer.from(patched.previous!.shas).equals(Buffer.from(whole.previous!.shas))).toBe(true);
    const at = (job: typeof whole, i: number) => [job.stored!.packNames[job.stored!.packs[i]], job.stored!.offsets[i], job.stored!.sizes[i]];
    for (let i = 0; i < 40; i++) expect(at(patched, i)).toEqual(at(whole, i));
    // The changed card's new digest, its previous one kept as the previous file's.
    const i = patched.keys!.indexOf('v1/cards/c027/30d.json.gz');
    expect(digestHex(patched.shas!, i)).toBe(sha('new v1/cards/c027/30d.json.gz'));
    expect(digestHex(patched.previous!.shas, i)).toBe(sha('c027/30d'));
  });

  it('when nothing changed then the job lists the previous objects as they were', () => {
    const { path } = previousIndex();
    const job = patchedJob(documentPatch('figures', path, '/packs', []).patch!);
    expect(job.keys).toEqual(['v1/figures/f1.json.gz']);
    expect(digestHex(job.shas!, 0)).toBe(sha('f1'));
    expect(job.stored!.packNames).toEqual([PACKS[1].sha256]);
  });

  it('when a changed key is not the previous snapshot\'s then it fails with an internal error naming it', () => {
    const { path } = previousIndex();
    const changed = [{ key: 'v1/cards/c999/30d.json.gz', size: 1, digest: Buffer.alloc(32), pack: NEW_PACK, offset: 0 }];
    expect(() => patchedJob(documentPatch('cards', path, '/packs', changed).patch!)).toThrow(/c999.*has no such object/);
  });
});
