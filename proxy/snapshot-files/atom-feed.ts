/**
 * The Atom document (RFC 4287) of the kept snapshots, one entry per snapshot, newest first: what a
 * feed reader or a partner's poller reads to learn that a new snapshot exists. Links are relative
 * references (RFC 4287 §4.2.7, resolved against the feed's own URL), like the Link headers of the
 * lists, so the same bytes are right behind any host name or TLS terminator. Every text is escaped;
 * ids and times come from snapshot ids that were checked (pointer.ts isSnapshotId) anyway.
 *
 * @example
 *   atomFeed(summaries, '/v1/snapshot/feed')   // '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns=…'
 */
import type { SnapshotSummary } from './snapshot-list.js';

export const ATOM_CONTENT_TYPE = 'application/atom+xml; charset=utf-8';
/** The feed's id: stable for the life of the API (an IRI, RFC 4287 §4.2.6). */
export const FEED_ID = 'urn:catalog-snapshots:feed';

const ENTITIES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' };
/** Element text: `"` stays readable there (the JSON in `content`). */
const escapeXml = (s: string) => s.replace(/[<>&]/g, (ch) => ENTITIES[ch]);
/** Attribute values, which are double-quoted. */
const escapeAttr = (s: string) => s.replace(/[<>&"]/g, (ch) => ENTITIES[ch]);
const n = (v: number | null) => (v === null ? 'n/a' : String(v));

/**
 * `since` is a snapshot that is still kept, so the link answers (not 410): the one this snapshot was
 * compiled against when kept, else the next older kept one (a daily retention prunes the snapshots
 * between); the oldest kept snapshot has nothing to compare with and no changes link.
 */
function entry(s: SnapshotSummary, kept: ReadonlySet<string>, olderKept: string | undefined): string {
  const self = `/v1/snapshot?snapshot=${encodeURIComponent(s.snapshotId)}`;
  const since = s.previous !== null && kept.has(s.previous) ? s.previous : olderKept;
  const changes = since === undefined ? null : `/v1/snapshot/changes?since=${encodeURIComponent(since)}&snapshot=${encodeURIComponent(s.snapshotId)}`;
  const c = s.changes;
  const summary = `${n(s.counts.cards)} cards, ${n(s.counts.figures)} figures, ${n(s.counts.sets)} sets, ${n(s.counts.oracle)} oracle concepts; ` +
    `${s.objects} objects: ${c.new} new, ${c.changed} changed, ${c.unchanged} unchanged, ${c.removed} removed since ${s.previous ?? 'nothing (a full compile)'}`;
  return [
    '  <entry>',
    `    <id>urn:catalog-snapshots:${escapeXml(s.snapshotId)}</id>`,
    `    <title>Snapshot ${escapeXml(s.snapshotId)}</title>`,
    `    <published>${s.createdAt}</published>`,
    `    <updated>${s.createdAt}</updated>`,
    `    <link rel="alternate" type="application/json" href="${escapeAttr(self)}"/>`,
    ...(changes === null ? [] : [`    <link rel="related" type="application/json" title="changes since ${escapeAttr(since!)}" href="${escapeAttr(changes)}"/>`]),
    `    <summary>${escapeXml(summary)}</summary>`,
    // The same facts as GET /v1/snapshots, for a program: JSON in an Atom text construct.
    `    <content type="text">${escapeXml(JSON.stringify(s))}</content>`,
    '  </entry>',
  ].join('\n');
}

/** The feed of `summaries` (newest first), served at `selfPath`. */
export function atomFeed(summaries: readonly SnapshotSummary[], selfPath: string): string {
  // An empty feed still needs an `updated`; the epoch says "never".
  const updated = summaries[0]?.createdAt ?? '1970-01-01T00:00:00.000Z';
  const kept = new Set(summaries.map((s) => s.snapshotId));
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${FEED_ID}</id>`,
    '  <title>Catalog snapshots</title>',
    '  <subtitle>One entry per kept snapshot of the catalog, newest first. Read one as of its time with snapshot=&lt;id&gt; on any catalog route.</subtitle>',
    `  <updated>${updated}</updated>`,
    '  <author><name>Catalog API</name></author>',
    `  <link rel="self" type="application/atom+xml" href="${escapeAttr(selfPath)}"/>`,
    '  <link rel="alternate" type="application/json" href="/v1/snapshots"/>',
    ...summaries.map((s, i) => entry(s, kept, summaries[i + 1]?.snapshotId)),
    '</feed>',
    '',
  ].join('\n');
}
