/**
 * The JSON body of a webhook request: the event type, the delivery and endpoint ids, the snapshot's
 * summary (the same facts as GET /v1/snapshots and the Atom feed) and links to read it. Links are
 * paths, like the feed's, to append to the API's base URL. The body is the same bytes on every
 * attempt of a delivery, so a receiver can dedupe on `deliveryId`.
 */
import type { SnapshotSummary } from '../snapshot-files/snapshot-list.js';

export const EVENT_TYPE = 'snapshot.published';

export interface WebhookPayload {
  type: typeof EVENT_TYPE;
  deliveryId: string;
  endpointId: string;
  snapshot: SnapshotSummary;
  links: { snapshot: string; changes: string | null; feed: string };
}

export function payloadBody(deliveryId: string, endpointId: string, summaryJson: string): string {
  const snapshot = JSON.parse(summaryJson) as SnapshotSummary;
  const id = encodeURIComponent(snapshot.snapshotId);
  const payload: WebhookPayload = {
    type: EVENT_TYPE, deliveryId, endpointId, snapshot,
    links: {
      snapshot: `/v1/snapshot?snapshot=${id}`,
      changes: snapshot.previous === null ? null : `/v1/snapshot/changes?since=${encodeURIComponent(snapshot.previous)}&snapshot=${id}`,
      feed: '/v1/snapshot/feed',
    },
  };
  return JSON.stringify(payload);
}
