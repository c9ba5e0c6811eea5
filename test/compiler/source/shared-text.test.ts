import { describe, expect, it } from 'vitest';
import { createTextPool } from '../../../compiler/source/shared-text.js';

describe('shared text of source records', () => {
  it('when records repeat a shared field then each keeps its own value, and only the shared fields and strings are touched', () => {
    const share = createTextPool();
    // Built at run time, so the two artist strings are distinct strings of the heap, as JSON.parse makes them.
    const wren = () => ['Wren', 'Dubois'].join(' ');
    const a = { id: 'mtg-lea-1', game: 'mtg', setCode: 'lea', rarity: 'rare', artist: wren(), releasedAt: '1993-08-05', addedAt: '2023-06-20', name: 'A', watchers: 2 };
    const b = { id: 'mtg-lea-2', game: 'mtg', setCode: 'lea', rarity: 'common', artist: wren(), releasedAt: '1993-08-05', addedAt: '2023-06-21', name: 'A', watchers: 0 };
    const before = [structuredClone(a), structuredClone(b)];
    share('cards', a);
    share('cards', b);
    expect([a, b]).toEqual(before);
    const figure = { id: 'fs-1-01', seriesId: 'fs-1', name: 'Snowy', rarity: null, imageUrl: null, releasedAt: null, addedAt: '2023-06-15', watchers: 1 };
    const figureBefore = structuredClone(figure);
    share('figures', figure);
    expect(figure).toEqual(figureBefore);
    // Kinds without shared fields are left as they are.
    const user = { id: 'u1', handle: 'mtg', artist: 'x' };
    share('users', user);
    expect(user).toEqual({ id: 'u1', handle: 'mtg', artist: 'x' });
  });
});
