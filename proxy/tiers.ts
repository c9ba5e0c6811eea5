/** Rate-limit tiers of API.md §5 (requests per 60 s window); configurable through ProxyConfig. */
export const TIERS = ['free', 'standard', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export const DEFAULT_TIER_LIMITS: Record<Tier, number> = { free: 60, standard: 600, enterprise: 6000 };
export const RATE_WINDOW_SECONDS = 60;

export function isTier(value: string): value is Tier {
  return (TIERS as readonly string[]).includes(value);
}
