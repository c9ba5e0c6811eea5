/**
 * GET /v1/snapshot/changes?since=<snapshotId> — every key new, changed or removed between a kept
 * snapshot and the current one (or `snapshot=<id>`), as an envelope whose `data.changes` is streamed
 * as it is computed (manifest-diff.ts). 410 `gone` when `since` is no longer kept: the caller then
 * syncs from the whole manifest. The answer depends only on the two immutable snapshots, so its ETag
 * names them (and the coding: the gzip answer has its own, RFC 9110 §8.8.3). It is gzipped as it
 * streams when the client accepts gzip (partner document part 2), like every JSON answer.
 */
import { pipeline, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { Context } from 'hono';
import { API_VERSION, SCHEMA_VERSION, toTimestamp } from '../../snapshots/envelope.js';
import type { SnapshotReader } from '../../snapshots/store/types.js';
import type { ProxyEnv } from '../env.js';
import { respond } from '../http/response-headers.js';
import { acceptsGzip } from '../serve-object/accept-encoding.js';
import { ifNoneMatchHits } from '../serve-object/etag.js';
import { JSON_CONTENT_TYPE, READ_CACHE_CONTROL } from '../serve-object/respond-object.js';
import { diffManifests } from '../snapshot-files/manifest-diff.js';
import type { SnapshotFiles } from '../snapshot-files/snapshot-files.js';

async function* changesBody(since: string, current: string, asOf: string | null, before: SnapshotReader | null, after: SnapshotReader): AsyncGenerator<string> {
  const counts = { new: 0, changed: 0, removed: 0 };
  yield `{"apiVersion":${JSON.stringify(API_VERSION)},"asOf":${JSON.stringify(asOf === null ? null : toTimestamp(asOf))},` +
    `"data":{"since":${JSON.stringify(since)},"snapshotId":${JSON.stringify(current)},"changes":[`;
  let first = true;
  if (before !== null) {
    let batch = '';
    for await (const change of diffManifests(before, after)) {
      counts[change.change]++;
      batch += (first ? '' : ',') + JSON.stringify(change);
      first = false;
      if (batch.length > 64 * 1024) {
        yield batch;
        batch = '';
      }
    }
    if (batch) yield batch;
  }
  yield `],"counts":${JSON.stringify(counts)}},"kind":"snapshotChanges","page":null,"schemaVersion":${SCHEMA_VERSION},"warnings":[]}`;
}

/** `since` and `snapshotId` are checked snapshot ids (route-table/params.ts); either may no longer be kept (410). */
export async function answerChanges(c: Context<ProxyEnv>, files: SnapshotFiles, since: string, snapshotId: string | undefined): Promise<Response> {
  const reader = await files.pin(c, snapshotId);
  const facts = await files.manifest(reader);
  const before = since === reader.id ? null : await files.kept(since, 'since');
  const gzip = acceptsGzip(c.req.header('accept-encoding'));
  const etag = `"changes-${since}-${reader.id}${gzip ? '-gzip' : ''}"`;
  const headers: Record<string, string> = {
    ETag: etag, 'Cache-Control': READ_CACHE_CONTROL, Vary: 'Accept-Encoding', 'Content-Type': JSON_CONTENT_TYPE, 'X-Snapshot-Id': reader.id,
  };
  if (ifNoneMatchHits(c.req.header('if-none-match'), etag)) return respond(c, null, 304, headers, null);
  if (gzip) headers['Content-Encoding'] = 'gzip';
  if (c.req.method === 'HEAD') return respond(c, null, 200, headers, null);
  const chunks = changesBody(since, reader.id, facts.header.asOf, before, reader);
  // A web body carries bytes, not strings.
  const bytes = Readable.from((async function* () {
    for await (const s of chunks) yield Buffer.from(s, 'utf8');
  })());
  // pipeline, not pipe: a diff that fails part-way destroys the gzip stream too, so the answer is
  // cut off (never ended as if complete) and the error is not lost.
  const out = gzip ? pipeline(bytes, createGzip(), () => {}) : bytes;
  const body = Readable.toWeb(out) as unknown as ReadableStream;
  return respond(c, body, 200, headers, null);
}
