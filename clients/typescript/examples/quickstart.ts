// The README's example: run against a server with CATALOG_URL and CATALOG_KEY set.
import { CatalogApiError, createCatalogClient } from '@collectibles/catalog-client';

const api = createCatalogClient({ baseUrl: process.env.CATALOG_URL!, key: process.env.CATALOG_KEY });

// Path, query and answer are typed from the OpenAPI document: `range` is '30d' | '3mo' | ..., `card.data` is a Card.
const { data: card } = await api.GET('/v1/cards/{id}', { params: { path: { id: 'OP01-001' }, query: { range: '30d' } } });
console.log(card!.data.name, card!.data.prices?.marketCents, 'cents, snapshot', card!.asOf);

const { data: found } = await api.GET('/v1/search', { params: { query: { q: 'wurm', limit: 3 } } });
for (const hit of found!.data) console.log(hit.entity, hit.id, hit.name);
console.log('page', found!.page.page, 'of', found!.page.totalPages);

try {
  await api.GET('/v1/cards/{id}', { params: { path: { id: 'OP99-999' } } });
} catch (error) {
  if (!(error instanceof CatalogApiError)) throw error;
  console.log(error.message, '| request', error.requestId);
}
