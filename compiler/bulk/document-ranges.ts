/**
 * Where the objects of each document bulk file are in an object index: a key range and a condition
 * on the key (SQL, for `WHERE key >= from AND key < to AND <where>`). The compile's object table
 * reads this compile's rows with them (object-table.ts), the bulk thread the previous snapshot's
 * (patch-job.ts), and a patch the rows of a few segments (patch-file.ts). `pattern` is the same test
 * of a key in JavaScript.
 */
export const CARDS = { from: 'v1/cards/', to: 'v1/cards0', where: "key GLOB 'v1/cards/*/30d.json.gz'", pattern: /^v1\/cards\/[^/]+\/30d\.json\.gz$/ };
export const FIGURES = { from: 'v1/figures/', to: 'v1/figures0', where: "key NOT GLOB 'v1/figures/*/*'", pattern: /^v1\/figures\/[^/]+\.json\.gz$/ };
const ORACLE = { from: 'v1/oracle/', to: 'v1/oracle0', where: '1', pattern: /^v1\/oracle\/[^/]+\.json\.gz$/ };

export const DOCUMENT_RANGES = { cards: CARDS, figures: FIGURES, oracle: ORACLE } as const;
export type DocumentName = keyof typeof DOCUMENT_RANGES;

/** The rows of one document bulk file's range, in key order: `SELECT <columns> FROM <schema>.objects WHERE …`. */
export function documentRowsSql(name: DocumentName, columns: string, schema = 'main'): string {
  const range = DOCUMENT_RANGES[name];
  return `SELECT ${columns} FROM ${schema}.objects WHERE key >= '${range.from}' AND key < '${range.to}' AND ${range.where} ORDER BY key`;
}
