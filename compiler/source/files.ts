/**
 * Which files of the catalog layout must exist. The optional ones are the kinds a small or
 * figure-less catalog legitimately lacks; for them a missing file means zero records.
 */
import { SOURCE_FILES, type SourceKind } from '../../snapshots/records.js';

const OPTIONAL_KINDS: ReadonlySet<SourceKind> = new Set([
  'users',
  'binders',
  'activity',
  'pullObservations',
  'figureSeries',
  'figures',
]);

export function isOptionalKind(kind: SourceKind): boolean {
  return OPTIONAL_KINDS.has(kind);
}

export function fileOf(kind: SourceKind): string {
  return SOURCE_FILES[kind];
}

export const SOURCE_KINDS = Object.keys(SOURCE_FILES) as SourceKind[];
