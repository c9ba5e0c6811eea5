/** What the webhook routes need (proxy/route-table/webhook-table.ts), built once per app (app.ts). */
import type { WebhookStore } from './store.js';

export interface WebhookDeps {
  store: WebhookStore;
  /** Plain http to a loopback host accepted (CATALOG_WEBHOOKS_ALLOW_LOOPBACK_HTTP=1, tests only). */
  allowLoopbackHttp: boolean;
  clock: () => number;
}
