/** Configuration (proxy/config.ts): defaults, and every bad value stops start-up with a message naming the setting. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../proxy/config.js';
import { CatalogError } from '../../snapshots/errors.js';

function configError(env: NodeJS.ProcessEnv): CatalogError {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof CatalogError) return err;
    throw err;
  }
  throw new Error('expected loadConfig to fail');
}

describe('loadConfig', () => {
  it('when nothing is set then the optional caller kinds are off and the defaults apply', () => {
    expect(loadConfig({})).toEqual({
      realm: 'catalog',
      internalKey: null,
      sessionSecret: null,
      publicOrigins: [],
      tierLimits: { free: 60, standard: 600, enterprise: 6000 },
      auditRetentionDays: 90,
    });
  });

  it('when every setting is given then each is read', () => {
    const config = loadConfig({
      CATALOG_INTERNAL_KEY: 'i'.repeat(24),
      CATALOG_SESSION_SECRET: 's'.repeat(32),
      CATALOG_PUBLIC_ORIGINS: 'https://app.example.com, http://localhost:5173',
      CATALOG_REALM: 'Collectibles API',
      CATALOG_TIER_LIMITS: 'free=10,enterprise=100000',
      CATALOG_AUDIT_RETENTION_DAYS: '30',
    });
    expect(config).toEqual({
      realm: 'Collectibles API',
      internalKey: 'i'.repeat(24),
      sessionSecret: 's'.repeat(32),
      publicOrigins: ['https://app.example.com', 'http://localhost:5173'],
      tierLimits: { free: 10, standard: 600, enterprise: 100000 },
      auditRetentionDays: 30,
    });
  });

  it.each([
    ['CATALOG_INTERNAL_KEY', 'short-secret'],
    ['CATALOG_SESSION_SECRET', 'x'.repeat(31)],
    ['CATALOG_SESSION_SECRET', `${'x'.repeat(20)} ${'y'.repeat(20)}`],
    ['CATALOG_PUBLIC_ORIGINS', 'app.example.com'],
    ['CATALOG_PUBLIC_ORIGINS', 'https://app.example.com/'],
    ['CATALOG_PUBLIC_ORIGINS', 'https://app.example.com/path'],
    ['CATALOG_PUBLIC_ORIGINS', 'ftp://files.example.com'],
    ['CATALOG_REALM', 'say "hi"'],
    ['CATALOG_REALM', 'tab\there'],
    ['CATALOG_TIER_LIMITS', 'gold=10'],
    ['CATALOG_TIER_LIMITS', 'free=0'],
    ['CATALOG_TIER_LIMITS', 'free:10'],
    ['CATALOG_AUDIT_RETENTION_DAYS', '0'],
    ['CATALOG_AUDIT_RETENTION_DAYS', 'ninety'],
  ])('when %s is %j then a config error names it', (name, value) => {
    const err = configError({ [name]: value });
    expect(err.code).toBe('config');
    expect(err.message).toContain(name);
    expect(err.details).toEqual({ setting: name });
  });

  it('when a secret is rejected then the message does not echo it', () => {
    const err = configError({ CATALOG_INTERNAL_KEY: 'hunter2-secret' });
    expect(err.message).not.toContain('hunter2');
  });
});
