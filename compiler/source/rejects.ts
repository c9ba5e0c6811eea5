/**
 * The records a load skipped, with file, line and reason. A compile tolerates at most
 * `maxRejects` of them (`--max-rejects N`, default 0): one more and the load stops at once
 * (check), so a badly broken source fails fast instead of being read to the end; at the end,
 * finish() hands the tolerated ones back to be printed as warnings.
 *
 * @example
 *   const rejects = createRejectLog(0);
 *   rejects.add('cards.ndjson', 3, 'missing required field "name"');
 *   rejects.check(); // throws CatalogError('invalid_source', '... cards.ndjson:3: missing required field "name" ...')
 */
import { CatalogError } from '../../snapshots/errors.js';

export interface Reject {
  file: string;
  lineNo: number;
  reason: string;
}

export interface RejectLog {
  readonly maxRejects: number;
  readonly count: number;
  add(file: string, lineNo: number, reason: string): void;
  list(): readonly Reject[];
  /** Throws CatalogError 'invalid_source' once count exceeds maxRejects. */
  check(): void;
  /** Same as check(), then returns every reject (the caller prints them as warnings). */
  finish(): readonly Reject[];
}

/** How many rejects an error message lists before summarising the rest. */
export const REJECTS_SHOWN = 20;

export function formatReject(reject: Reject): string {
  return `${reject.file}:${reject.lineNo}: ${reject.reason}`;
}

export function createRejectLog(maxRejects: number): RejectLog {
  if (!Number.isInteger(maxRejects) || maxRejects < 0) {
    throw new CatalogError('usage', `--max-rejects must be an integer >= 0, got ${String(maxRejects)}`);
  }
  const rejects: Reject[] = [];

  const check = (): void => {
    if (rejects.length <= maxRejects) return;
    const shown = rejects.slice(0, REJECTS_SHOWN).map((r) => `  ${formatReject(r)}`);
    const more = rejects.length - shown.length;
    const lines = [
      `the catalog source has at least ${rejects.length} rejected records, more than --max-rejects allows (${maxRejects}):`,
      ...shown,
      ...(more > 0 ? [`  ... and ${more} more`] : []),
      `Fix these records, or run with --max-rejects N to skip up to N bad records (each is reported as a warning).`,
    ];
    throw new CatalogError('invalid_source', lines.join('\n'), { rejects: rejects.length, maxRejects });
  };

  return {
    maxRejects,
    get count() {
      return rejects.length;
    },
    add(file, lineNo, reason) {
      rejects.push({ file, lineNo, reason });
    },
    list: () => rejects,
    check,
    finish() {
      check();
      return rejects;
    },
  };
}
