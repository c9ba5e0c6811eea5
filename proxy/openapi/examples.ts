/**
 * Examples of the document: real responses of the proxy, captured by `npm run openapi`
 * (scripts/openapi.mjs → capture-examples.ts) from the deterministic catalog named in `catalog`,
 * compiled twice with one price changed in between (example-price-change.ts), and committed as
 * examples.json. A test recaptures them and fails when they differ, so they always show what the
 * code sends.
 */
import committed from './examples.json' with { type: 'json' };

export interface CapturedExample {
  /** The request, as `METHOD path?query`. */
  request: string;
  status: number;
  body: unknown;
}

/** The one price edited between the two compiles: the last price of `entity` `id` goes up by `addCents`. */
export interface ExamplePriceChange {
  entity: 'card' | 'figure';
  id: string;
  addCents: number;
}

export interface OpenApiExamples {
  /**
   * `catalog generate --cards <cards> --seed <seed>` made the catalog the examples come from; it was
   * compiled, `priceChange` applied, and compiled again (the current snapshot).
   */
  catalog: { cards: number; seed: number; priceChange: ExamplePriceChange };
  /** Success answers, by operationId. */
  operations: Record<string, CapturedExample>;
  /** One answer per error status, by status. */
  errors: Record<string, CapturedExample>;
}

/**
 * The generated catalog the examples are captured from (the same as `catalog demo --cards 300`), and
 * the price change between its two compiles. OP01-001 is the card of the getCard example, so the
 * change list names keys a reader has just seen.
 */
export const EXAMPLE_CATALOG: OpenApiExamples['catalog'] = { cards: 300, seed: 1, priceChange: { entity: 'card', id: 'OP01-001', addCents: 10 } };

export function committedExamples(): OpenApiExamples {
  return committed as OpenApiExamples;
}
