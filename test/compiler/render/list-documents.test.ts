import { describe, expect, it } from 'vitest';
import { encodeDocument } from '../../../snapshots/codec.js';
import { DOCUMENT_KINDS } from '../../../snapshots/envelope.js';
import { keyPaths } from './fixtures.js';
import { renderEverything, reordered, sampleCatalog } from './sample-catalog.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TIME_FIELDS = new Set(['asOf', 'priceDate', 'addedAt', 'releasedAt', 'updatedAt', 'joinedAt', 'date', 'from', 'to']);

function visit(value: unknown, fn: (key: string, v: unknown) => void): void {
  if (Array.isArray(value)) value.forEach((v) => visit(v, fn));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      fn(k, v);
      visit(v, fn);
    }
  }
}

describe('list and aggregate documents', () => {
  const docs = renderEverything(sampleCatalog());

  it('when the same catalog comes in another order then every document encodes to the same bytes', () => {
    for (const seed of [1, 2, 3]) {
      const again = renderEverything(reordered(sampleCatalog(), seed));
      expect([...again.keys()].sort()).toEqual([...docs.keys()].sort());
      for (const [name, doc] of docs) {
        expect(encodeDocument(again.get(name)).equals(encodeDocument(doc)), name).toBe(true);
      }
    }
  });

  it('when items of one kind are listed then every item has the same keys (null never omitted)', () => {
    const shapes = new Map<string, string>();
    for (const [name, doc] of docs) {
      const items = Array.isArray(doc.data) ? doc.data : [];
      for (const item of items as Record<string, unknown>[]) {
        // Cards and figures are distinct summary shapes, told apart by `entity`.
        const kind = `${doc.kind}:${String(item.entity ?? '')}`;
        const shape = keyPaths(item).join(',');
        expect(shape, `${name} item ${String(item.id ?? item.date)}`).toBe(shapes.get(kind) ?? shape);
        shapes.set(kind, shape);
      }
    }
    expect(shapes.size).toBeGreaterThan(10);
  });

  it('when a document is a list then data is an array and page is a block; single objects have page null', () => {
    for (const [name, doc] of docs) {
      expect(DOCUMENT_KINDS).toContain(doc.kind);
      expect(doc).toMatchObject({ apiVersion: 'v1', schemaVersion: 1, warnings: [] });
      if (['pullStats', 'showcase', 'catalogSummary'].includes(doc.kind)) {
        expect(doc.page, name).toBeNull();
        expect(Array.isArray(doc.data), name).toBe(false);
      } else {
        expect(Array.isArray(doc.data), name).toBe(true);
        expect(doc.page, name).toMatchObject({ limit: 100 });
      }
    }
  });

  it('when a document carries times then each is YYYY-MM-DDTHH:MM:SS.mmmZ', () => {
    for (const [name, doc] of docs) {
      if (doc.asOf !== null) expect(doc.asOf, name).toMatch(TIMESTAMP);
      visit(doc.data, (key, v) => {
        if (TIME_FIELDS.has(key) && v !== null) expect(v, `${name}: ${key}`).toMatch(TIMESTAMP);
      });
    }
  });

  it('when an item carries a price then it says priceSynthetic: null exactly when unpriced, true only for a made-up series', () => {
    // In the sample catalog only tfc-1's series is synthetic; every other priced entry is observed.
    let priced = 0;
    let madeUp = 0;
    for (const [name, doc] of docs) {
      // Every object under data, the items themselves included (visit only reports keyed values).
      const objects: object[] = [];
      visit({ data: doc.data }, (_key, v) => {
        if (Array.isArray(v)) for (const x of v) if (x !== null && typeof x === 'object' && !Array.isArray(x)) objects.push(x);
        if (v !== null && typeof v === 'object' && !Array.isArray(v)) objects.push(v);
      });
      for (const v of objects) {
        if (!('marketCents' in v)) continue;
        const item = v as { id?: string; marketCents: number | null; priceSynthetic?: boolean | null };
        expect(item, `${name}: ${String(item.id)} has marketCents but no priceSynthetic`).toHaveProperty('priceSynthetic');
        if (item.marketCents === null) expect(item.priceSynthetic, name).toBeNull();
        else {
          priced++;
          expect(item.priceSynthetic, `${name}: ${String(item.id)}`).toBe(item.id === 'tfc-1');
          if (item.priceSynthetic) madeUp++;
        }
      }
    }
    // Both kinds were seen, so the check above could fail either way.
    expect(priced).toBeGreaterThan(madeUp);
    expect(madeUp).toBeGreaterThan(0);
  });

  it('when money appears then it is integer cents', () => {
    for (const [name, doc] of docs) {
      visit(doc.data, (key, v) => {
        if (/Cents$/.test(key) && v !== null) expect(Number.isInteger(v), `${name}: ${key}`).toBe(true);
      });
    }
  });
});
