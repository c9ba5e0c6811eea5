import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { linesSync } from '../../../compiler/compile/previous.js';

const dir = mkdtempSync(join(tmpdir(), 'lines-sync-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('linesSync (previous manifest reader)', () => {
  it('when lines and multi-byte characters straddle chunk boundaries then every line comes back whole', () => {
    const lines = Array.from({ length: 200 }, (_, i) => `{"key":"v1/cards/é-${i}/30d.json.gz","note":"${'€'.repeat(i % 7)}"}`);
    const path = join(dir, 'm.ndjson');
    writeFileSync(path, lines.join('\n') + '\n');
    for (const chunk of [1, 3, 7, 64, 1 << 20]) expect([...linesSync(path, chunk)]).toEqual(lines);
  });

  it('skips empty lines and returns a last line without a newline', () => {
    const path = join(dir, 'n.ndjson');
    writeFileSync(path, 'a\n\n\nb\nlast');
    expect([...linesSync(path, 2)]).toEqual(['a', 'b', 'last']);
  });
});
