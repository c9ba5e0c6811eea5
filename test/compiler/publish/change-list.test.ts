/**
 * The change list of a compile is written to changes.ndjson as it is read from the object index
 * (never held whole: 5.4 million lines at a million cards), and the changes bulk file is compressed
 * from that file: the same lines, the same bytes as compressing them from memory.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { writeChangeList } from '../../../compiler/publish/publish.js';
import { buildBulkFile, changesFileJob } from '../../../compiler/bulk/write-bulk.js';
import { createFsSnapshotWriter } from '../../../snapshots/store/fs.js';
import { makeDirsSync } from '../../../snapshots/store/make-dirs.js';
import type { ChangeEntry } from '../../../snapshots/manifest.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function newWriter() {
  const root = mkdtempSync(join(tmpdir(), 'change-list-'));
  roots.push(root);
  const writer = createFsSnapshotWriter(root, '20261127T000000Z-00000000');
  makeDirsSync(writer.dir);
  return writer;
}

// More than one write of changes.ndjson (1 MiB each) and many reads of it (256 KiB each), with
// multi-byte characters that a chunk boundary can cut in two.
const CHANGES: ChangeEntry[] = Array.from({ length: 40_000 }, (_, i) => ({
  key: `v1/cards/pokémon-ñ-${String(i).padStart(6, '0')}/30d.json.gz`,
  change: (['new', 'changed', 'removed'] as const)[i % 3],
}));

describe('the change list', () => {
  it('when written then changes.ndjson holds one JSON line per change and the count and fingerprint are those of its lines', async () => {
    const writer = newWriter();
    const written = await writeChangeList(writer, CHANGES);
    const text = readFileSync(join(writer.dir, 'changes.ndjson'), 'utf8');
    const lines = text.split('\n').slice(0, -1);
    expect(lines.map((l) => JSON.parse(l))).toEqual(CHANGES);
    const expected = createHash('sha256');
    for (const l of lines) expected.update(`${l}\n\n`);
    expect(written).toEqual({ count: CHANGES.length, input: expected.digest('hex') });
  });

  it('when the changes bulk file is compressed from changes.ndjson then it has the same lines and bytes as one compressed from memory', async () => {
    const writer = newWriter();
    const written = await writeChangeList(writer, CHANGES);
    const path = join(writer.dir, 'changes.ndjson');
    const fromFile = await buildBulkFile(changesFileJob(path, written), writer.dir, null, new Map());
    const bytes = readFileSync(join(writer.dir, fromFile.file));
    expect(gunzipSync(bytes).toString('utf8')).toBe(readFileSync(path, 'utf8'));
    expect(fromFile).toMatchObject({ name: 'changes', count: CHANGES.length, input: written.input, size: bytes.length });

    const other = newWriter();
    const lines = readFileSync(path, 'utf8').split(/(?<=\n)/);
    const fromMemory = await buildBulkFile({ name: 'changes', input: written.input, count: lines.length, lines }, other.dir, null, new Map());
    expect(fromMemory).toEqual(fromFile);
  });

  it('when the change list is empty then both files are empty of lines', async () => {
    const writer = newWriter();
    const written = await writeChangeList(writer, []);
    expect(written.count).toBe(0);
    const file = await buildBulkFile(changesFileJob(join(writer.dir, 'changes.ndjson'), written), writer.dir, null, new Map());
    expect(gunzipSync(readFileSync(join(writer.dir, file.file))).length).toBe(0);
  });
});
