/**
 * A file of the mirror's previous snapshot re-used by the new one: a hard link (no copy, no
 * download), or a copy where links fail (another device, a file system without them).
 */
import { copyFileSync, linkSync } from 'node:fs';

export function linkFrom(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return;
    copyFileSync(from, to);
  }
}
