/**
 * The bulk files' segment state (compiler/bulk/segment-state.ts) read back exactly as written, and
 * not trusted when it is of another version or describes another file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { readSegmentState, SEGMENT_STATE_FILE, segmentStateOf, writeSegmentState } from '../../../compiler/bulk/segment-state.js';

const dirs: string[] = [];
const dir = () => {
  const d = mkdtempSync(join(tmpdir(), 'segment-state-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const keys = Array.from({ length: 5_000 }, (_, i) => `v1/cards/c${String(i).padStart(6, '0')}.json.gz`);
const shas = new Uint8Array(keys.length * 32).map((_, i) => (i * 7919) % 251);
const SHA = 'a'.repeat(64);

describe('bulk segment state', () => {
  it('when a state is written then it is read back the same, for a file with segments and one without', () => {
    const d = dir();
    const state = segmentStateOf(keys, shas);
    expect(state.firstKeys.length).toBeGreaterThan(1);
    writeSegmentState(d, 'cards', { sha256: SHA, state });
    writeSegmentState(d, 'figures', { sha256: SHA, state: segmentStateOf([], new Uint8Array(0)) });
    expect(readSegmentState(d, 'cards', SHA)).toEqual(state);
    expect(readSegmentState(d, 'figures', SHA)).toEqual({ firstKeys: [], lines: new Uint32Array(0), digests: new Uint8Array(0) });
    // Written again: replaced, not added to.
    writeSegmentState(d, 'cards', { sha256: SHA, state });
    expect(readSegmentState(d, 'cards', SHA)).toEqual(state);
  });

  it('when the state describes another file, is of another version or its keys are out of order then it is not trusted', () => {
    const d = dir();
    writeSegmentState(d, 'cards', { sha256: SHA, state: segmentStateOf(keys, shas) });
    expect(readSegmentState(d, 'cards', 'b'.repeat(64))).toBeNull();
    expect(readSegmentState(d, 'oracle', SHA)).toBeNull();
    const db = new Database(join(d, SEGMENT_STATE_FILE));
    db.prepare("UPDATE bulk_files SET first_keys = 'v1/z' || char(10) || substr(first_keys, instr(first_keys, char(10)) + 1) WHERE name = 'cards'").run();
    db.close();
    expect(readSegmentState(d, 'cards', SHA)).toBeNull();
    // Written again, then marked as the layout before (one row per segment, version 1).
    writeSegmentState(d, 'cards', { sha256: SHA, state: segmentStateOf(keys, shas) });
    expect(readSegmentState(d, 'cards', SHA)).not.toBeNull();
    const old = new Database(join(d, SEGMENT_STATE_FILE));
    old.pragma('user_version = 1');
    old.close();
    expect(readSegmentState(d, 'cards', SHA)).toBeNull();
  });
});
