/**
 * Puts one record into the folder and counts the outcome on its file: imported, merged, or
 * rejected with the reason the folder gave.
 */
import type { PutResult } from './catalog-folder.js';
import type { ImportReportBuilder } from './report.js';

export function tally(report: ImportReportBuilder, file: string, id: string, result: PutResult): boolean {
  if (!result.ok) {
    report.reject(file, id, result.reason);
    return false;
  }
  report.file(file)[result.status] += 1;
  return true;
}
