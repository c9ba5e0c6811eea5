/**
 * Where `catalog mirror --key` takes the API key from: the key itself, `@file` (first line of the
 * file), or `env:VAR`. A key on the command line is visible to other users of the machine (ps), so
 * the docs recommend the other two. The key is never part of a message.
 *
 * @example
 *   resolveKey('@/run/secrets/catalog-key', process.env)
 *   resolveKey('env:CATALOG_KEY', process.env)
 */
import { readFileSync } from 'node:fs';
import { CatalogError } from '../snapshots/errors.js';

const KEY_SHAPE = /^rxk_[A-Za-z0-9]{32}$/;

export function resolveKey(spec: string, env: NodeJS.ProcessEnv): string {
  let key: string;
  if (spec.startsWith('@')) {
    try {
      key = readFileSync(spec.slice(1), 'utf8').split('\n', 1)[0].trim();
    } catch (err) {
      throw new CatalogError('usage', `--key ${spec}: the key file cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`, { option: 'key' });
    }
  } else if (spec.startsWith('env:')) {
    const name = spec.slice(4);
    const value = env[name];
    if (value === undefined || value === '') throw new CatalogError('usage', `--key env:${name}: the variable is not set`, { option: 'key' });
    key = value.trim();
  } else {
    key = spec.trim();
  }
  if (!KEY_SHAPE.test(key)) {
    throw new CatalogError('usage', '--key does not hold an API key (rxk_ followed by 32 letters or digits); give the key, @file or env:VAR', { option: 'key' });
  }
  return key;
}
