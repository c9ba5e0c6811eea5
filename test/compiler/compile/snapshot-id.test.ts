import { describe, expect, it } from 'vitest';
import { newSnapshotId } from '../../../compiler/compile/snapshot-id.js';
import { isSnapshotId } from '../../../snapshots/store/pointer.js';

describe('newSnapshotId', () => {
  it('names the second it was made, with a random suffix', () => {
    const id = newSnapshotId(new Date('2026-11-22T02:00:00.400Z'));
    expect(id).toMatch(/^20261122T020000Z-[0-9a-f]{8}$/);
    expect(isSnapshotId(id)).toBe(true);
  });

  it('when compiles follow each other within one second then their ids still sort in the order they were made', () => {
    const at = new Date('2026-11-22T02:00:00.400Z');
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(newSnapshotId(at, ids.at(-1) ?? null));
    expect([...ids].sort()).toEqual(ids);
    expect(ids[1].slice(0, 16)).toBe('20261122T020001Z');
  });

  it('when the clock stepped back then the new id is still after the newest one', () => {
    const id = newSnapshotId(new Date('2026-11-22T01:59:00.000Z'), '20261122T020000Z-ffffffff');
    expect(id.slice(0, 16)).toBe('20261122T020001Z');
    expect(newSnapshotId(new Date('2026-11-22T03:00:00.000Z'), '20261122T020000Z-ffffffff').slice(0, 16)).toBe('20261122T030000Z');
  });
});
