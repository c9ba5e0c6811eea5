/** Reads a published snapshot straight from disk for assertions. */
import { readFileSync, readlinkSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { gunzipSync } from 'node:zlib';

export function currentId(root: string): string | null {
  try {
    return readlinkSync(join(root, 'current'));
  } catch {
    return null;
  }
}

export function manifestEntries(root: string, id = currentId(root)!): { key: string; size: number; sha256: string }[] {
  const lines = readFileSync(join(root, id, 'manifest.ndjson'), 'utf8').trim().split('\n');
  return lines.slice(1).map((l) => JSON.parse(l));
}

export function manifestHeader(root: string, id = currentId(root)!): Record<string, any> {
  return JSON.parse(readFileSync(join(root, id, 'manifest.ndjson'), 'utf8').split('\n')[0]);
}

export function readDoc(root: string, key: string, id = currentId(root)!): any {
  return JSON.parse(gunzipSync(readFileSync(join(root, id, key))).toString('utf8'));
}

export function* objectFiles(dir: string): Generator<{ key: string; path: string }> {
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (p.endsWith('.json.gz')) yield { key: relative(dir, p).split(sep).join('/'), path: p };
    }
  }
}
