/**
 * The exit-code table of docs/snapshots.md is what operators script against, so it must list every
 * exit code the CLI can end with (each code of ERROR_CODES, and success) and nothing else.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, EXIT_OK } from '../../snapshots/errors.js';
import { REPO } from '../helpers/cli.js';

/** The codes in the first column of the table under `## Exit codes`, up to the next heading. */
function documentedExitCodes(markdown: string): number[] {
  const section = markdown.split(/^## Exit codes$/m)[1];
  if (section === undefined) throw new Error('docs/snapshots.md has no "## Exit codes" section');
  const body = section.split(/^#{1,6} /m)[0];
  return [...body.matchAll(/^\| *([0-9]+) *\|/gm)].map((m) => Number(m[1]));
}

describe('docs/snapshots.md exit codes', () => {
  const documented = documentedExitCodes(readFileSync(join(REPO, 'docs', 'snapshots.md'), 'utf8'));
  const produced = new Set<number>([EXIT_OK, ...Object.values(ERROR_CODES).map((c) => c.exit)]);

  it('lists each code once', () => {
    expect(documented.length).toBeGreaterThan(0);
    expect(new Set(documented).size).toBe(documented.length);
  });

  it('lists every exit code snapshots/errors.ts can produce', () => {
    expect([...produced].filter((code) => !documented.includes(code)).sort()).toEqual([]);
  });

  it('lists no exit code snapshots/errors.ts cannot produce', () => {
    expect(documented.filter((code) => !produced.has(code))).toEqual([]);
  });
});
