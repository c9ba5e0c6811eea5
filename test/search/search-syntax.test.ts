import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, ids, q, search, type Fixture } from './fixture.js';

let fx: Fixture;
beforeAll(() => {
  fx = createFixture();
});
afterAll(async () => {
  await fx.cleanup();
});

describe('GET /v1/search treats FTS5 syntax in q as plain text', () => {
  it('a double quote is a separator, not a phrase delimiter', async () => {
    expect(ids((await search(fx.app, q('"quoted'))).body)).toEqual(['mtg-quote']);
    expect(ids((await search(fx.app, q('"light" "bolt'))).body)).toEqual(['mtg-lightning-bolt']);
  });

  it('a star is not a prefix operator: "b*" is the 1-character word b', async () => {
    const star = await search(fx.app, q('b*'));
    expect(star.res.status).toBe(200);
    expect(star.body.data).toEqual([]);
    expect(ids((await search(fx.app, q('star*'))).body)).toEqual(['mtg-quote']);
  });

  it('NEAR(a b) is the words near, a and b', async () => {
    const { res, body } = await search(fx.app, q('NEAR(death experience)'));
    expect(res.status).toBe(200);
    expect(ids(body)).toEqual(['mtg-near-death']);
  });

  it('OR, AND and NOT are words that must match, not operators', async () => {
    expect(ids((await search(fx.app, q('or else'))).body)).toEqual(['mtg-or-else']);
    // As an operator "bolt OR charizard" would return both; as words nothing has all three.
    expect(ids((await search(fx.app, q('bolt OR charizard'))).body)).toEqual([]);
    expect(ids((await search(fx.app, q('NOT dead'))).body)).toEqual(['mtg-not-dead']);
    expect(ids((await search(fx.app, q('dead AND yet'))).body)).toEqual([]);
  });

  it('a column filter later in q is plain words', async () => {
    expect(ids((await search(fx.app, q('sticker name:x'))).body)).toEqual(['mtg-name-x']);
    expect(ids((await search(fx.app, q('mtg:name:sticker'))).body)).toEqual(['mtg-name-x']);
  });

  it('parentheses, ^, minus and braces are separators', async () => {
    for (const text of ['(', ')', '((bolt', '^bolt', '-bolt', '{name}: bolt', 'bolt)', '"', "'", '*', '+bolt']) {
      const { res } = await search(fx.app, q(text));
      expect(res.status, text).toBe(200);
    }
    expect(ids((await search(fx.app, q('^lightning -bolt'))).body)).toEqual(['mtg-lightning-bolt']);
    expect(ids((await search(fx.app, q('(ring) (thunder'))).body)).toEqual(['mtg-thunderbolt-ring']);
  });
});

/** Small deterministic PRNG (mulberry32) so a failing case can be replayed from its seed. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  '"', '""', '*', '^', '(', ')', '{', '}', ':', '-', '+', 'NEAR', 'NEAR(', 'AND', 'OR', 'NOT', 'name:', 'set_name:', 'scope:',
  'cardmtg', 'mtg:', 'figures:', '\u0000', '\u0007', '\n', '\t', '\r', '\u200b', '\ufeff', '\u0301', 'é', 'Ş', 'ß', 'ﬁ', 'İ',
  'Σ', '中文', '😀', '👩‍👩‍👧', '\u{10FFFF}', '\uD800', '\uDFFF', '%', '%%', '\\', "'", '`', ';', 'DROP TABLE', '∗', '★', '½',
  'bolt', 'ch', 'a', 'x'.repeat(150), 'Ⅻ', '١٢٣', 'ⓑⓞⓛⓣ', 'ｂｏｌｔ',
];
const RAW_ENCODED = ['%ED%A0%80', '%ED%BF%BF', '%FF', '%C0%80', '%E2%82', '%00', '%', '%2', '%zz', '%F4%90%80%80', '%22', '%2A'];

describe('GET /v1/search fuzz', () => {
  it('never answers anything but 200 or 400 with a JSON body, whatever q, page and limit hold', async () => {
    const rand = prng(20261120);
    const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
    const statuses = new Map<number, number>();
    for (let i = 0; i < 1500; i++) {
      let query: string;
      if (rand() < 0.3) {
        // Raw percent-encoded bytes, including lone surrogates in CESU-8 form and broken sequences.
        const parts: string[] = [];
        const n = 1 + Math.floor(rand() * 6);
        for (let k = 0; k < n; k++) parts.push(rand() < 0.5 ? pick(RAW_ENCODED) : encodeURIComponent(pick(PIECES).replace(/[\uD800-\uDFFF]/g, 'x')));
        query = `q=${parts.join(rand() < 0.5 ? '+' : '')}`;
      } else {
        let text = '';
        const n = 1 + Math.floor(rand() * 8);
        for (let k = 0; k < n; k++) {
          text += rand() < 0.7 ? pick(PIECES) : String.fromCodePoint(Math.floor(rand() * 0x2ffff));
          if (rand() < 0.5) text += ' ';
        }
        // encodeURIComponent throws on lone surrogates; send them as the browser would (U+FFFD) or raw below.
        query = `q=${encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, '\uFFFD'))}`;
      }
      if (rand() < 0.2) query += `&page=${pick(['1', '2', '11', '999999999', '0', '-1', 'x', '1e3'])}`;
      if (rand() < 0.2) query += `&limit=${pick(['1', '100', '101', '999999999', '0', ''])}`;
      const res = await fx.app.request(`/v1/search?${query}`);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      expect([200, 400], query).toContain(res.status);
      const body = (await res.json()) as { data?: unknown[]; error?: string };
      if (res.status === 200) expect(Array.isArray(body.data), query).toBe(true);
      else expect(body.error, query).toBe('invalid_parameter');
    }
    // The generator must exercise both outcomes, or the loop proves little.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(500);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(50);
  });

  it('handles the heaviest valid inputs: 100 one-letter words, one 200-letter word, 66 distinct prefixes', async () => {
    const cases = [
      Array.from({ length: 100 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(' '),
      'x'.repeat(200),
      Array.from({ length: 66 }, (_, i) => `c${String.fromCharCode(97 + (i % 26))}`).join(' '),
      'a '.repeat(100).trim(),
    ];
    for (const text of cases) {
      const { res, body } = await search(fx.app, q(text));
      expect(res.status).toBe(200);
      expect(Array.isArray(body.data)).toBe(true);
    }
  });
});
