/**
 * Part of every document's input fingerprint: a hash of the renderer code itself, so upgrading the
 * compiler re-renders every document instead of re-using objects an older renderer produced.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { fingerprint } from '../../snapshots/codec.js';

export function rendererCodeHash(): string {
  const dirs = ['../render', '../../snapshots'].map((d) => fileURLToPath(new URL(d, import.meta.url)));
  const parts: string[] = [];
  for (const dir of dirs) {
    for (const name of readdirSync(dir).sort()) {
      if (!/\.(js|ts)$/.test(name) || name.endsWith('.d.ts')) continue;
      parts.push(name, readFileSync(join(dir, name), 'utf8'));
    }
  }
  return fingerprint(...parts);
}
