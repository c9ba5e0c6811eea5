/**
 * Part of every document's input fingerprint: a hash of the renderer code itself, so upgrading the
 * compiler re-renders every document instead of re-using objects an older renderer produced. The
 * stores an incremental compile trusts (price lines, the stored catalog) hash the code that made
 * them the same way (codeFiles).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { fingerprint } from '../../snapshots/codec.js';

export function rendererCodeHash(): string {
  return fingerprint(...codeFiles(new URL('../render', import.meta.url)), ...codeFiles(new URL('../../snapshots', import.meta.url)));
}

/** The renderer code hash and the compile's own code (this folder: how documents are wired and re-used). */
export function compilerCodeHash(rendererCode: string): string {
  return fingerprint(rendererCode, ...codeFiles(new URL('.', import.meta.url)));
}

/**
 * The name and text of each code file of a folder, in name order (`.js` when built, `.ts` when a test
 * runs the source; not `.d.ts`).
 */
export function codeFiles(folder: URL): string[] {
  const dir = fileURLToPath(folder);
  const parts: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (!/\.(js|ts)$/.test(name) || name.endsWith('.d.ts')) continue;
    parts.push(name, readFileSync(join(dir, name), 'utf8'));
  }
  return parts;
}
