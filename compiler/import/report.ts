/**
 * What an import did, file by file: every record read is counted as imported (new in the folder),
 * merged (it matched a record already there: a re-import, a card repeated in another pack, the
 * second face of a double-faced card, a price for a card already priced) or rejected, and every
 * rejected record is listed with its file, id and reason. Notes list records that were imported
 * with a field left null because the source had only a placeholder (`---`, `2030/01/01`).
 *
 * @example
 *   const report = createImportReport();
 *   const file = report.file('LEA.json');
 *   file.read += 1; file.imported += 1;
 *   report.reject('LEA.json', 'x', 'missing name');
 *   formatImportReport(report) // the table the CLI prints
 */

export interface FileCounts {
  file: string;
  read: number;
  imported: number;
  merged: number;
  rejected: number;
}

export interface ImportIssue {
  file: string;
  /** The record's id in the source, or a row/line label when it has none. */
  id: string;
  reason: string;
}

/** The folder after the import: how many records of each kind it holds now. */
export interface FolderTotals {
  sets: number;
  cards: number;
  figureSeries: number;
  figures: number;
  priceSeries: number;
  syntheticPriceSeries: number;
  asOf: string;
}

export interface ImportReport {
  files: FileCounts[];
  rejected: ImportIssue[];
  notes: ImportIssue[];
  totals: FolderTotals | null;
  /** Set when --strict stopped the write. */
  written: boolean;
}

export interface ImportReportBuilder extends ImportReport {
  /** The counters of one file, created on first use (files keep the order they were first named). */
  file(name: string): FileCounts;
  /** Counts a rejected record of `file` and lists it. */
  reject(file: string, id: string, reason: string): void;
  note(file: string, id: string, reason: string): void;
}

export function createImportReport(): ImportReportBuilder {
  const byName = new Map<string, FileCounts>();
  const report: ImportReportBuilder = {
    files: [],
    rejected: [],
    notes: [],
    totals: null,
    written: false,
    file(name) {
      let counts = byName.get(name);
      if (counts === undefined) {
        counts = { file: name, read: 0, imported: 0, merged: 0, rejected: 0 };
        byName.set(name, counts);
        report.files.push(counts);
      }
      return counts;
    },
    reject(file, id, reason) {
      report.file(file).rejected += 1;
      report.rejected.push({ file, id, reason });
    },
    note(file, id, reason) {
      report.notes.push({ file, id, reason });
    },
  };
  return report;
}

export function sumCounts(files: readonly FileCounts[]): FileCounts {
  const total: FileCounts = { file: 'total', read: 0, imported: 0, merged: 0, rejected: 0 };
  for (const f of files) {
    total.read += f.read;
    total.imported += f.imported;
    total.merged += f.merged;
    total.rejected += f.rejected;
  }
  return total;
}

/** The lines the CLI prints: one row per file, a total, then every rejected record and every note. */
export function formatImportReport(report: ImportReport): string {
  const rows = [...report.files, sumCounts(report.files)];
  const width = Math.max(4, ...rows.map((r) => r.file.length));
  const num = (n: number, w: number) => String(n).padStart(w);
  const lines = [`${'file'.padEnd(width)}  ${'read'.padStart(7)}  ${'imported'.padStart(8)}  ${'merged'.padStart(7)}  ${'rejected'.padStart(8)}`];
  for (const r of rows) {
    lines.push(`${r.file.padEnd(width)}  ${num(r.read, 7)}  ${num(r.imported, 8)}  ${num(r.merged, 7)}  ${num(r.rejected, 8)}`);
  }
  if (report.rejected.length > 0) {
    lines.push(`rejected (${report.rejected.length}):`);
    for (const r of report.rejected) lines.push(`  ${r.file}: ${r.id}: ${r.reason}`);
  }
  if (report.notes.length > 0) {
    lines.push(`notes (${report.notes.length}):`);
    for (const n of report.notes) lines.push(`  ${n.file}: ${n.id}: ${n.reason}`);
  }
  const t = report.totals;
  if (t !== null && report.written) {
    lines.push(
      `folder now holds ${t.sets} sets, ${t.cards} cards, ${t.figureSeries} figure series, ${t.figures} figures, ` +
        `${t.priceSeries} price series (${t.syntheticPriceSeries} synthetic); asOf ${t.asOf}`,
    );
  }
  return lines.join('\n');
}
