/**
 * The compiler's input: open the canonical catalog (folder or HTTP export), load and validate it,
 * then stream its prices. The format is documented for users in docs/source-format.md.
 *
 * @example
 *   import { openSource, loadCatalog, streamPrices, formatReject } from '../source/index.js';
 *   const source = openSource(options.source, { concurrency: 4 });
 *   try {
 *     const catalog = await loadCatalog(source, { maxRejects: options.maxRejects });
 *     for await (const { record, text } of streamPrices(source, catalog)) { ... }
 *     for (const reject of catalog.rejects.finish()) warn(formatReject(reject));
 *   } finally {
 *     await source.close();
 *   }
 */
export type { CatalogSource, SourceLine } from './catalog-source.js';
export { openSource, SOURCE_DEFAULTS, type OpenSourceOptions } from './open.js';
export { loadCatalog, type LoadedCatalog, type LoadOptions } from './load.js';
export { parseKnownLine, seriesEnd, streamPrices, type LineMarks, type PricedEntities, type PriceLine, type PriceLineIdentity, type StreamPricesOptions } from './prices.js';
export { createRejectLog, formatReject, type Reject, type RejectLog } from './rejects.js';
export { isOptionalKind } from './files.js';
