import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, q, search, type Fixture } from './fixture.js';

let fx: Fixture;
beforeAll(() => {
  fx = createFixture();
});
afterAll(async () => {
  await fx.cleanup();
});

async function expect400(query: string, parameter = 'q') {
  const res = await fx.app.request(`/v1/search?${query}`);
  expect(res.status, query).toBe(400);
  const body = (await res.json()) as { error: string; message: string; requestId: string };
  expect(body.error).toBe('invalid_parameter');
  expect(body.requestId).toBe('req-test');
  expect(body.message).toContain(parameter);
  return body;
}

describe('GET /v1/search parameters', () => {
  it('when the word before a colon is not a kind prefix then q is searched as text, with a warning naming the allowed prefixes', async () => {
    for (const text of ['name:bolt', 'mgt:bolt', 'cards:bolt', 'constructor:x', 'toString:x', 'hasOwnProperty:x']) {
      const { res, body } = await search(fx.app, q(text));
      expect(res.status, text).toBe(200);
      expect(body.warnings, text).toEqual([`"${text.split(':')[0]}:" is not a search prefix (mtg:, pokemon:, lorcana:, onepiece:, figures:), so q was searched as text`]);
    }
    expect((await search(fx.app, q('bolt:'))).body.data.map((d) => d.id)).toContain('mtg-bolt');
  });

  it('when q is a prefix with no text then 400, as q= is', async () => {
    await expect400(q('mtg:'));
    await expect400(q('figures:   '));
  });

  it('when q is missing, empty, blank or longer than 200 characters then 400', async () => {
    await expect400('');
    await expect400('q=');
    await expect400(q('   \t  '));
    await expect400(q('a'.repeat(201)));
    await expect400(q('mtg:' + 'b'.repeat(197)));
  });

  it('counts the 200 characters of q as sent (as the OpenAPI maxLength does: spaces at its ends count) and in code points', async () => {
    expect((await search(fx.app, q(` ${'a'.repeat(198)} `))).res.status).toBe(200);
    await expect400(q(`  ${'a'.repeat(200)}  `));
    expect((await search(fx.app, q('😀'.repeat(200)))).res.status).toBe(200);
    await expect400(q('😀'.repeat(201)));
  });

  it('when q is given twice then 400', async () => {
    await expect400('q=bolt&q=char');
  });

  it('when an unknown parameter is sent then 400 naming it', async () => {
    await expect400('q=bolt&game=mtg', 'game');
  });

  it('when page or limit is not a positive integer then 400 naming it', async () => {
    await expect400('q=bolt&page=0', 'page');
    await expect400('q=bolt&page=x', 'page');
    await expect400('q=bolt&limit=-1', 'limit');
    await expect400('q=bolt&limit=1.5', 'limit');
  });

  it('when limit is above 100 then it is capped at 100 with a warning', async () => {
    const { res, body } = await search(fx.app, 'q=a&limit=500');
    expect(res.status).toBe(200);
    expect(body.page.limit).toBe(100);
    expect(body.warnings).toContain('limit capped at 100');
  });

  it('defaults limit to 20', async () => {
    const { body } = await search(fx.app, q('golem'));
    expect(body.page.limit).toBe(20);
    expect(body.data).toHaveLength(20);
  });
});
