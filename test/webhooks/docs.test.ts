/** The verifier shown in docs/partners.md is the file the delivery tests run, byte for byte. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

describe('docs/partners.md webhooks section', () => {
  it('shows docs/webhooks/verify-signature.mjs exactly', () => {
    const verifier = readFileSync(join(REPO, 'docs', 'webhooks', 'verify-signature.mjs'), 'utf8');
    expect(readFileSync(join(REPO, 'docs', 'partners.md'), 'utf8')).toContain('```js\n' + verifier + '```');
  });
});
