/**
 * The rate-limit headers of API.md §5, in the IETF draft's structured-field form
 * (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy: "<tier>";q=<limit>;w=60` and
 * `RateLimit: "<tier>";r=<remaining>;t=<seconds to window end>`.
 */
import { RATE_WINDOW_SECONDS } from '../tiers.js';
import type { RateDecision } from './counter.js';

export function rateLimitPolicyHeader(d: RateDecision): string {
  return `"${d.tier}";q=${d.limit};w=${RATE_WINDOW_SECONDS}`;
}

export function rateLimitHeader(d: RateDecision): string {
  return `"${d.tier}";r=${d.remaining};t=${d.resetSeconds}`;
}
