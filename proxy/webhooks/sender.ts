/**
 * The background sender of one server process. Every `pollMs` it (1) looks at the current snapshot
 * and, when it is one it has not seen, announces it (store.announce queues one delivery per
 * endpoint, once across every process sharing the state), then (2) leases due deliveries up to its
 * free slots and sends them without waiting: a slow receiver holds one slot, never the API, a
 * publish, or the other slots. Timers are unref'd; stop() ends the loop, aborts the requests in
 * flight (their leases are released, uncounted, for the next process start) and waits for them.
 *
 * @example
 *   const sender = startWebhookSender({ store, snapshots, settings: loadWebhookSettings(env), log });
 *   await sender.stop();
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { SnapshotSource } from '../../snapshots/store/types.js';
import { keptOf, summaryOf } from '../snapshot-files/snapshot-list.js';
import { payloadBody, EVENT_TYPE } from './payload.js';
import { postOnce, type PostResult } from './post.js';
import { nextAttemptAt, type WebhookSettings } from './settings.js';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signatureHeader } from './signature.js';
import type { AttemptOutcome, ClaimedDelivery, WebhookStore } from './store.js';

export interface WebhookSenderDeps {
  store: WebhookStore;
  snapshots: SnapshotSource;
  settings: WebhookSettings;
  clock?: () => number;
  random?: () => number;
  /** One line per event worth an operator's eye; never a secret or a body. */
  log?: (line: string) => void;
}

export interface WebhookSender {
  stop(): Promise<void>;
}

const PRUNE_EVERY_MS = 3600_000;
const DAY_MS = 86_400_000;
const MAX_ERROR_LENGTH = 300;

export function startWebhookSender(deps: WebhookSenderDeps): WebhookSender {
  const { store, snapshots, settings } = deps;
  const clock = deps.clock ?? Date.now;
  const log = deps.log ?? (() => {});
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  // Long enough to outlive an attempt; once it runs out (the process died) another process retries.
  const leaseMs = settings.timeoutMs * 2 + 30_000;
  const inFlight = new Map<string, { abort: AbortController; done: Promise<void> }>();
  let lastSeen: string | null = null;
  let lastPrune = 0;
  let stopped = false;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;

  async function noticeSnapshot(): Promise<void> {
    const reader = await snapshots.current();
    if (reader === null || reader.id === lastSeen) return;
    const summary = summaryOf(reader.id, await keptOf(reader).header());
    const queued = await store.announce(reader.id, JSON.stringify(summary), clock());
    lastSeen = reader.id;
    if (queued > 0) log(`webhooks: snapshot ${reader.id} queued for ${queued} endpoint(s)`);
  }

  async function dispatch(): Promise<void> {
    const free = settings.concurrency - inFlight.size;
    for (const claim of await store.claim(owner, clock(), leaseMs, free)) {
      const abort = new AbortController();
      const done = attempt(claim, abort.signal)
        .catch((err: unknown) => log(`webhooks: delivery ${claim.deliveryId} could not be recorded: ${(err as Error).message}`))
        .finally(() => {
          inFlight.delete(claim.deliveryId);
          // A freed slot may have due work behind it: look now rather than a poll later.
          if (!stopped) kick();
        });
      inFlight.set(claim.deliveryId, { abort, done });
    }
  }

  async function attempt(claim: ClaimedDelivery, signal: AbortSignal): Promise<void> {
    const body = payloadBody(claim.deliveryId, claim.endpointId, claim.summary);
    const headers = {
      [SIGNATURE_HEADER]: signatureHeader(claim.secret, Math.floor(clock() / 1000), body),
      [DELIVERY_HEADER]: claim.deliveryId,
      [EVENT_HEADER]: EVENT_TYPE,
    };
    const result = await postOnce(claim.url, body, headers, settings.timeoutMs, signal);
    if (result.kind === 'aborted') {
      await store.release(claim.deliveryId, owner);
      return;
    }
    const outcome = outcomeOf(claim, result);
    await store.settle(claim.deliveryId, owner, outcome);
    if (outcome.status === 'failed') log(`webhooks: delivery ${claim.deliveryId} to endpoint ${claim.endpointId} failed after ${outcome.attempts} attempt(s): ${outcome.lastError}`);
  }

  function outcomeOf(claim: ClaimedDelivery, result: Exclude<PostResult, { kind: 'aborted' }>): AttemptOutcome {
    const nowMs = clock();
    const attempts = claim.attempts + 1;
    const lastStatus = result.kind === 'answered' ? result.status : null;
    if (lastStatus !== null && lastStatus >= 200 && lastStatus < 300) {
      return { status: 'delivered', attempts, nextAttemptMs: null, lastStatus, lastError: null, nowMs };
    }
    const error = (result.kind === 'answered' ? `the receiver answered HTTP ${result.status}` : result.error).slice(0, MAX_ERROR_LENGTH);
    // 410 Gone: the receiver says this URL will never take it; retrying for a day would only add load.
    if (lastStatus === 410) return { status: 'failed', attempts, nextAttemptMs: null, lastStatus, lastError: `${error} (Gone: not retried)`, nowMs };
    const next = nextAttemptAt(settings.retry, attempts, claim.createdMs, nowMs, deps.random);
    return next === null
      ? { status: 'failed', attempts, nextAttemptMs: null, lastStatus, lastError: `${error} (gave up after ${attempts} attempt(s))`, nowMs }
      : { status: 'pending', attempts, nextAttemptMs: next, lastStatus, lastError: error, nowMs };
  }

  async function prune(): Promise<void> {
    const now = clock();
    if (now - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = now;
    await store.prune(now - settings.logRetentionDays * DAY_MS);
  }

  async function pass(): Promise<void> {
    try {
      await noticeSnapshot();
    } catch (err) {
      log(`webhooks: cannot read the current snapshot: ${(err as Error).message}`);
    }
    if (stopped) return;
    try {
      await dispatch();
      await prune();
    } catch (err) {
      log(`webhooks: the state refused a webhook update: ${(err as Error).message}`);
    }
  }

  function schedule(ms: number): void {
    if (stopped) return;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(kick, ms);
    timer.unref();
  }

  function kick(): void {
    if (running !== null || stopped) return;
    running = pass().finally(() => {
      running = null;
      schedule(settings.pollMs);
    });
  }

  schedule(0);
  return {
    async stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      // A pass under way finishes first (it may lease deliveries), then its requests are aborted.
      await running;
      for (const { abort } of inFlight.values()) abort.abort();
      await Promise.all([...inFlight.values()].map((f) => f.done));
    },
  };
}
