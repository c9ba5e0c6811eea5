import { describe, expect, it } from 'vitest';
import { splicePage } from '../../../compiler/compile/page-splice.js';
import { renderSetPages } from '../../../compiler/render/set-pages.js';
import { renderArtistPages } from '../../../compiler/render/artist-pages.js';
import { cardSummary } from '../../../compiler/render/summaries.js';
import { setMapKey } from '../../../compiler/render/summaries.js';
import { toTimestamp } from '../../../snapshots/envelope.js';
import { stableJson } from '../../../snapshots/codec.js';
import { CatalogError } from '../../../snapshots/errors.js';
import type { CardRecord } from '../../../snapshots/records.js';
import type { PriceSummary } from '../../../compiler/render/types.js';
import { card, price, set } from '../render/fixtures.js';

// Names that a scanner of JSON gets wrong when it does not follow strings and escapes.
const TRICKY = ['plain', 'with "quotes" and \\ backslash', 'braces } { ] [ , inside', 'ends with a backslash \\', '"id":"c0"', 'Ünïcode ✓ 日本', 'tab\tand\nnewline'];

const theSet = set({ code: 'tst', name: 'Test "Set"' });
const cards = (n: number): CardRecord[] =>
  Array.from({ length: n }, (_, i) => card(`c${i}`, { setCode: 'tst', number: String(i + 1), name: TRICKY[i % TRICKY.length], artist: i % 3 === 0 ? null : TRICKY[(i + 2) % TRICKY.length] }));

const priced = (list: CardRecord[], prices: Map<string, PriceSummary | null>) => list.map((c) => ({ card: c, summary: prices.get(c.id) ?? null }));

/** The set's page `page` (1-based) as stored JSON bytes. */
const setPage = (list: CardRecord[], prices: Map<string, PriceSummary | null>, page = 1) => Buffer.from(stableJson(renderSetPages(theSet, priced(list, prices))[page - 1]));

describe('a list page patched from the previous one (splicePage)', () => {
  it('when some cards of a set page changed price then the patch is byte for byte the page rendered afresh, whichever cards and asOf', () => {
    const list = cards(150); // two pages: 100 and 50
    const before = new Map(list.map((c, i) => [c.id, i % 5 === 0 ? null : price(100 + i, 90, '2026-11-19')]));
    for (const changedIds of [['c0'], ['c99'], ['c3', 'c4', 'c5'], ['c0', 'c42', 'c99'], [], ['c100', 'c149'], ['c120']]) {
      const after = new Map(before);
      // A price date later than every other moves the list's asOf: every page of the set carries it.
      for (const id of changedIds) after.set(id, id === 'c42' ? null : price(7, 100, '2026-11-21'));
      for (const page of [1, 2]) {
        const offset = (page - 1) * 100;
        const onPage = changedIds.map((id) => Number(id.slice(1))).filter((i) => i >= offset && i < offset + 100);
        const items = onPage.map((i) => ({ at: i - offset, id: `c${i}`, json: stableJson(cardSummary(list[i], theSet, after.get(`c${i}`) ?? null)) }));
        const fresh = renderSetPages(theSet, priced(list, after))[page - 1];
        const patched = splicePage('k', setPage(list, before, page), JSON.stringify(fresh.asOf), items);
        expect(patched.toString('utf8')).toBe(stableJson(fresh));
      }
    }
  });

  it('when an artist page (cards of several sets, null artists) changed then the patch equals the fresh page', () => {
    const other = set({ code: 'oth', name: 'Other \\ set', releasedAt: '2001-01-01' });
    const sets = new Map([[setMapKey(theSet.game, theSet.code), theSet], [setMapKey(other.game, other.code), other]]);
    const list = cards(30).map((c, i) => (i % 2 ? { ...c, setCode: 'oth', releasedAt: '2001-01-01' } : c));
    const before = new Map(list.map((c) => [c.id, price(50, 40)]));
    const after = new Map(before).set('c7', price(51, 50, '2026-11-22'));
    const [old] = renderArtistPages('a', 'A', priced(list, before), sets);
    const [fresh] = renderArtistPages('a', 'A', priced(list, after), sets);
    const at = fresh.data.findIndex((s) => s.id === 'c7');
    const item = { at, id: 'c7', json: stableJson(cardSummary(list[7], other, after.get('c7')!)) };
    expect(splicePage('k', Buffer.from(stableJson(old)), JSON.stringify(fresh.asOf), [item]).toString('utf8')).toBe(stableJson(fresh));
  });

  it('when the asOf was null or becomes null then it is replaced like a timestamp', () => {
    const list = cards(3).map((c) => ({ ...c, addedAt: null as unknown as string }));
    const noSet = set({ code: 'tst', releasedAt: null as unknown as string });
    const page = (prices: Map<string, PriceSummary | null>) => renderSetPages(noSet, priced(list, prices))[0];
    const none = new Map<string, PriceSummary | null>();
    const some = new Map([['c1', price(5, 4)]]);
    expect(page(none).asOf).toBeNull();
    const items = [{ at: 1, id: 'c1', json: stableJson(page(some).data[1]) }];
    expect(splicePage('k', Buffer.from(stableJson(page(none))), JSON.stringify(toTimestamp('2026-11-20')), items).toString()).toBe(stableJson(page(some)));
    const back = [{ at: 1, id: 'c1', json: stableJson(page(none).data[1]) }];
    expect(splicePage('k', Buffer.from(stableJson(page(some))), 'null', back).toString()).toBe(stableJson(page(none)));
  });

  it('when the item at a position is not the card named, or the page has fewer items, or is not an envelope, then it is refused as corrupt_object', () => {
    const list = cards(5);
    const prices = new Map(list.map((c) => [c.id, price(1, 1)]));
    const bytes = setPage(list, prices);
    const refused = (run: () => unknown) => {
      try {
        run();
      } catch (err) {
        return err instanceof CatalogError && err.code === 'corrupt_object' ? err.message : `other: ${String(err)}`;
      }
      return 'accepted';
    };
    expect(refused(() => splicePage('v1/sets/x/page-1.json.gz', bytes, 'null', [{ at: 2, id: 'c3', json: '{}' }]))).toMatch(/v1\/sets\/x\/page-1.json.gz.*position 2 is not c3/);
    expect(refused(() => splicePage('k', bytes, 'null', [{ at: 5, id: 'c5', json: '{}' }]))).toMatch(/no item at position 5/);
    expect(refused(() => splicePage('k', Buffer.from('{"apiVersion":"v1","asOf":1,"data":[]}'), 'null', []))).toMatch(/asOf is neither/);
    expect(refused(() => splicePage('k', Buffer.from('[1,2]'), 'null', []))).toMatch(/not an envelope/);
    expect(refused(() => splicePage('k', bytes.subarray(0, bytes.length / 2), 'null', [{ at: 4, id: 'c4', json: '{}' }]))).toMatch(/unterminated|not an object|fewer/);
    // The same position twice.
    const item = { at: 1, id: 'c1', json: stableJson(cardSummary(list[1], theSet, null)) };
    expect(refused(() => splicePage('k', bytes, 'null', [item, item]))).toMatch(/twice/);
  });
});
