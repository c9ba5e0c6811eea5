/**
 * The key check shared within one event-loop turn (proxy/keys/turn-check.ts): concurrent requests
 * parsed in the same turn share one lookup; a request in a later turn always reads the key again,
 * so a revocation is seen by the next request (the cross-app case is in gate.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { createTurnCheck } from '../../proxy/keys/turn-check.js';
import type { KeyCheck } from '../../proxy/keys/store.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function countingStore(results: KeyCheck[]) {
  const calls: string[] = [];
  return {
    calls,
    check(presented: string): KeyCheck {
      calls.push(presented);
      return results[Math.min(calls.length - 1, results.length - 1)];
    },
  };
}

const active: KeyCheck = { ok: true, key: { keyId: 'AAAAAAAA', tenant: 'acme', tier: 'free', createdAt: '2026-11-20T00:00:00.000Z', expiresAt: null, revokedAt: null, replacedBy: null } };
const revoked: KeyCheck = { ok: false, reason: 'revoked', key: { ...(active as { key: never }).key, revokedAt: '2026-11-20T01:00:00.000Z' } };

describe('key check per turn', () => {
  it('when one key is checked several times in one turn then the store is asked once', () => {
    const store = countingStore([active]);
    const check = createTurnCheck(store);
    expect([check('rxk_a'), check('rxk_a'), check('rxk_a')]).toEqual([active, active, active]);
    expect(store.calls).toEqual(['rxk_a']);
  });

  it('when different keys are checked in one turn then each is looked up', () => {
    const store = countingStore([active]);
    const check = createTurnCheck(store);
    check('rxk_a');
    check('rxk_b');
    expect(store.calls).toEqual(['rxk_a', 'rxk_b']);
  });

  it('when the key is revoked between two turns then the check of the later turn sees it', async () => {
    const store = countingStore([active, revoked]);
    const check = createTurnCheck(store);
    expect(check('rxk_a')).toEqual(active);
    await nextTurn();
    expect(check('rxk_a')).toEqual(revoked);
    expect(store.calls).toHaveLength(2);
  });
});
