/**
 * Keys are stored as SHA-256 of the whole key and compared in constant time, so a stolen state
 * file yields no usable key and response timing does not leak how much of a guess was right.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export function hashesEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Constant-time equality of two secrets of any length: both sides are hashed first so the compare
 * always runs over 32 bytes and the length of the configured secret is not revealed.
 */
export function secretsEqual(presented: string, expected: string): boolean {
  return timingSafeEqual(hashKey(presented), hashKey(expected));
}
