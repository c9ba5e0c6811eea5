// Verifies a catalog webhook request (Node 18+, no dependencies). Pass the raw body bytes as
// received, before any JSON parsing, and the secret(s) of the endpoint: two while you switch after
// a rotate-secret. Returns the parsed event, or throws.
import { createHmac, timingSafeEqual } from 'node:crypto';

const TOLERANCE_SECONDS = 300; // refuse requests signed more than 5 minutes from now: replays

export function verifyCatalogWebhook(rawBody, signatureHeader, secrets, nowSeconds = Math.floor(Date.now() / 1000)) {
  const parts = String(signatureHeader ?? '').split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  const v1s = parts.filter(([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/.test(v ?? '')).map(([, v]) => Buffer.from(v, 'hex'));
  if (!Number.isInteger(t) || v1s.length === 0) throw new Error('malformed Catalog-Signature header');
  if (Math.abs(nowSeconds - t) > TOLERANCE_SECONDS) throw new Error('timestamp outside the tolerance window (a replay?)');
  const signed = Buffer.concat([Buffer.from(`${t}.`), Buffer.from(rawBody)]);
  const ok = [secrets].flat().some((secret) => {
    const expected = createHmac('sha256', secret).update(signed).digest();
    return v1s.some((v1) => timingSafeEqual(expected, v1)); // constant-time compare
  });
  if (!ok) throw new Error('signature does not match');
  return JSON.parse(Buffer.from(rawBody).toString('utf8'));
}
