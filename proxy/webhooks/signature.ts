/**
 * The signature of a webhook request, in the `t=<unix seconds>,v1=<hex>` shape Stripe made common:
 * v1 is HMAC-SHA256 with the endpoint's secret over `<t>.<body>`. The timestamp is inside the MAC,
 * so a receiver that refuses an old `t` refuses a replayed request (docs/partners.md shows the
 * receiver's side, docs/webhooks/verify-signature.mjs).
 *
 * @example
 *   signatureHeader('whsec_…', 1763630430, '{"type":"snapshot.published",…}')   // 't=1763630430,v1=5f0c…'
 */
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'Catalog-Signature';
export const DELIVERY_HEADER = 'Catalog-Delivery-Id';
export const EVENT_HEADER = 'Catalog-Event';

export function signatureHeader(secret: string, unixSeconds: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
