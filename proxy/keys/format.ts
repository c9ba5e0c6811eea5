/**
 * Key format of API.md §4: `rxk_` + 32 base62 characters from a CSPRNG; the key ID is the first 8
 * characters of the suffix (safe to log and show; the rest is the secret).
 *
 * @example
 *   const key = generateKey();   // 'rxk_4fZk2QpA9...'
 *   keyIdOf(key)                 // '4fZk2QpA'
 */
import { randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'rxk_';
export const KEY_SUFFIX_LENGTH = 32;
export const KEY_ID_LENGTH = 8;
export const KEY_PATTERN = /^rxk_[0-9A-Za-z]{32}$/;
export const KEY_ID_PATTERN = /^[0-9A-Za-z]{8}$/;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// 248 = 4 * 62: bytes at or above it are dropped so every character is equally likely (no modulo bias).
const UNBIASED_BYTE_LIMIT = 248;

/**
 * A key, or a piece of one longer than its key ID, anywhere in a text (a key pasted into a URL path,
 * a search query): whatever follows the 8 ID characters is secret, even when the key was cut short.
 */
const KEY_ANYWHERE = /rxk_([0-9A-Za-z]{8})[0-9A-Za-z]+/g;

/**
 * `text` with every key-shaped substring cut to its public key ID (`rxk_4fZk2QpA…`). Applied to what
 * the proxy echoes or stores from a request (error messages, audit paths, log lines), because a
 * partner who pastes a key into a URL must not find it in an error body, the audit log or a log file.
 */
export function redactKeys(text: string): string {
  return text.includes(KEY_PREFIX) ? text.replace(KEY_ANYWHERE, `${KEY_PREFIX}$1…`) : text;
}

/**
 * What a message may echo of a key-ID argument (a URL path segment, a CLI argument): at most a key
 * ID. The argument is what someone typed or pasted, possibly a whole key, so after an optional
 * `rxk_` only the first KEY_ID_LENGTH characters are kept, and `…` marks that more was cut.
 *
 * @example
 *   shownKeyId('4fZk2QpA')                          // '4fZk2QpA'
 *   shownKeyId('rxk_4fZk2QpA9xYz…(32 characters)')  // '4fZk2QpA…'
 */
export function shownKeyId(raw: string): string {
  const rest = raw.startsWith(KEY_PREFIX) ? raw.slice(KEY_PREFIX.length) : raw;
  const chars = [...rest];
  return chars.length > KEY_ID_LENGTH ? `${chars.slice(0, KEY_ID_LENGTH).join('')}…` : rest;
}

export function isKeyFormat(value: string): boolean {
  return KEY_PATTERN.test(value);
}

export function isKeyId(value: string): boolean {
  return KEY_ID_PATTERN.test(value);
}

export function keyIdOf(key: string): string {
  return key.slice(KEY_PREFIX.length, KEY_PREFIX.length + KEY_ID_LENGTH);
}

export function generateKey(random: (size: number) => Buffer = randomBytes): string {
  let suffix = '';
  while (suffix.length < KEY_SUFFIX_LENGTH) {
    for (const byte of random(48)) {
      if (byte >= UNBIASED_BYTE_LIMIT) continue;
      suffix += BASE62[byte % 62];
      if (suffix.length === KEY_SUFFIX_LENGTH) break;
    }
  }
  return KEY_PREFIX + suffix;
}
