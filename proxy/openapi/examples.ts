/**
 * Examples of the document: real responses of the proxy, captured by `npm run openapi`
 * (scripts/openapi.mjs → capture-examples.ts) from a snapshot compiled from the deterministic
 * catalog named in `catalog`, and committed as examples.json. A test recaptures them and fails when
 * they differ, so they always show what the code sends.
 */
import committed from './examples.json' with { type: 'json' };

export interface CapturedExample {
  /** The request, as `METHOD path?query`. */
  request: string;
  status: number;
  body: unknown;
}

export interface OpenApiExamples {
  /** `catalog generate --cards <cards> --seed <seed>` made the catalog the examples come from. */
  catalog: { cards: number; seed: number };
  /** Success answers, by operationId. */
  operations: Record<string, CapturedExample>;
  /** One answer per error status, by status. */
  errors: Record<string, CapturedExample>;
}

/** The generated catalog the examples are captured from (the same as `catalog demo --cards 300`). */
export const EXAMPLE_CATALOG = { cards: 300, seed: 1 } as const;

export function committedExamples(): OpenApiExamples {
  return committed as OpenApiExamples;
}
