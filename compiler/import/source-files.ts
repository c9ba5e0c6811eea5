/**
 * Reading the public files: one JSON document at a time (the largest MTGJSON set file is a few MB;
 * the folder is 88 MB, so files are parsed one by one and dropped), and how each file is named in
 * the report (relative to the path given on the command line).
 *
 * @example
 *   for (const file of await jsonFilesOf('mtg/mtgjson-sets')) {
 *     const doc = await readJson(file);   // { ok: true, value } or { ok: false, reason }
 *   }
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { CatalogError } from '../../snapshots/errors.js';

export type JsonRead = { ok: true; value: unknown } | { ok: false; reason: string };

export async function readJson(path: string): Promise<JsonRead> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    return { ok: false, reason: `cannot read the file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
  try {
    return { ok: true, value: JSON.parse(text.replace(/^\uFEFF/, '')) };
  } catch (err) {
    return { ok: false, reason: `not valid JSON (${(err as Error).message})` };
  }
}

/** What the user pointed at: a folder or a file. Missing is a usage error naming the path. */
export async function kindOf(path: string): Promise<'dir' | 'file'> {
  const info = await stat(path).catch(() => null);
  if (info === null) throw new CatalogError('usage', `${path}: no such file or folder`);
  return info.isDirectory() ? 'dir' : 'file';
}

/** The `*.json` files of a folder in name order, or the one file given. */
export async function jsonFilesOf(path: string): Promise<string[]> {
  if ((await kindOf(path)) === 'file') return [path];
  const names = (await readdir(path)).filter((n) => n.toLowerCase().endsWith('.json')).sort();
  return names.map((n) => join(path, n));
}

/** How a file is named in the report: relative to the folder given, or its name when a file was given. */
export function labelFor(root: string, file: string, rootIsFile: boolean): string {
  return rootIsFile ? basename(file) : relative(root, file);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A trimmed non-empty string, or null. */
export function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const t = value.trim();
  return t === '' ? null : t;
}
