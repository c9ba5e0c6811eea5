/**
 * Response header components (API.md §2, §5-7) and the sets each kind of response carries. The
 * response-validation tests check every header a response sends against these, so a header the
 * code adds or renames has to be documented here first.
 */
import { TIERS } from '../tiers.js';
import { READ_CACHE_CONTROL } from '../serve-object/respond-object.js';
import { SNAPSHOT_CACHE_CONTROL } from '../snapshot-files/respond-file.js';
import type { Schema } from './schema-kit.js';

const TIER = `(${TIERS.join('|')})`;
/** A snapshot id (snapshots/store/pointer.ts), unanchored. */
export const SNAPSHOT_ID = '[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}(-[0-9]+)?';

interface HeaderDef {
  description: string;
  schema: Schema;
  /** How the component is declared: where a response differs, headerSet writes the header out. */
  required?: boolean;
}

const HEADERS: Record<string, HeaderDef> = {
  'X-Request-Id': {
    required: true,
    description: 'A fresh id of this request, on every response (errors included); quote it when reporting a problem.',
    schema: { type: 'string', format: 'uuid', examples: ['2b7809ee-a149-4ec0-a969-f18cd4a7e5af'] },
  },
  'X-Snapshot-Id': {
    description: 'The catalog snapshot that answered.',
    schema: { type: 'string', pattern: `^${SNAPSHOT_ID}$`, examples: ['20261122T022420Z-756f307c'] },
  },
  ETag: {
    required: true,
    description: 'Strong validator. gzip: `"<sha256 of the stored gzip bytes>"`, the hash the snapshot manifest lists (a mirror sends the same); plain JSON: `"<sha256>-identity"`; a snapshot file or bulk file: `"<sha256 of its bytes>"`; a body built per request (search, snapshot metadata, the bulk list, the public key): `"<sha256 of the bytes sent>"`, gzip or plain; the changes between two snapshots: `"changes-<since>-<snapshot>"`. Send it back in If-None-Match to get 304.',
    schema: { type: 'string', pattern: `^"([0-9a-f]{64}(-identity)?|changes-${SNAPSHOT_ID}-${SNAPSHOT_ID})"$`, examples: ['"8a9f2240b20d41cf15770f917c9225752df1d3813f79f32bf2982bbf1c4eabe0"'] },
  },
  'Cache-Control': {
    required: true,
    description: 'Reads may be kept by shared caches for 5 minutes and served stale for an hour while revalidating; snapshot metadata, manifests and bulk files change at every publish, so caches keep them but revalidate each use (`public, no-cache`); errors and health answers are never stored.',
    schema: { type: 'string', enum: [READ_CACHE_CONTROL, SNAPSHOT_CACHE_CONTROL, 'no-store', 'private, no-store'] },
  },
  Vary: { description: 'The body depends on Accept-Encoding.', schema: { type: 'string', const: 'Accept-Encoding' }, required: true },
  'Content-Encoding': {
    description: 'gzip when Accept-Encoding accepts it (`gzip`, `x-gzip` or `*` with q > 0); absent otherwise and the body is plain JSON. An error body the server builds is sent plain under 1024 bytes.',
    schema: { type: 'string', const: 'gzip' },
  },
  Link: {
    description: 'RFC 8288 links to the next and previous page of a list, keeping the other parameters.',
    schema: { type: 'string', pattern: '^<[^>]+>; rel="(next|prev)"(, <[^>]+>; rel="prev")?$', examples: ['</v1/sets/mtg/was?limit=3&page=3>; rel="next", </v1/sets/mtg/was?limit=3&page=1>; rel="prev"'] },
  },
  RateLimit: {
    description: 'On every response to an API key: `"<tier>";r=<requests left>;t=<seconds until the window ends>`.',
    schema: { type: 'string', pattern: `^"${TIER}";r=[0-9]+;t=[0-9]+$`, examples: ['"standard";r=597;t=58'] },
  },
  'RateLimit-Policy': {
    description: 'On every response to an API key: `"<tier>";q=<requests per window>;w=60`.',
    schema: { type: 'string', pattern: `^"${TIER}";q=[0-9]+;w=60$`, examples: ['"standard";q=600;w=60'] },
  },
  'Retry-After': { description: 'Seconds until the key may call again.', schema: { type: 'string', pattern: '^[0-9]+$', examples: ['16'] }, required: true },
  'WWW-Authenticate': {
    required: true,
    description: 'The bearer challenge; `error="invalid_token"` when a key was sent but is malformed, unknown, revoked or expired.',
    schema: { type: 'string', pattern: '^Bearer realm="[^"]*", scope="v1"(, error="invalid_token")?$', examples: ['Bearer realm="catalog", scope="v1"'] },
  },
  'Accept-Ranges': {
    required: true,
    description: 'The file can be fetched in parts: send `Range: bytes=<first>-[<last>]` (with `If-Range: <ETag>` to resume only the same file).',
    schema: { type: 'string', const: 'bytes' },
  },
  'Content-Range': {
    required: true,
    description: 'On 206, the bytes sent and the file size (`bytes <first>-<last>/<size>`); on 416, the file size (`bytes */<size>`).',
    schema: { type: 'string', pattern: '^bytes ([0-9]+-[0-9]+|\\*)/[0-9]+$', examples: ['bytes 100-275/276', 'bytes */276'] },
  },
  'Content-Disposition': {
    description: 'A file name to save the download under (the snapshot id is part of it).',
    schema: { type: 'string', pattern: '^attachment; filename="[A-Za-z0-9._-]+"$', examples: ['attachment; filename="cards-20261122T021830Z-3c48fccd.ndjson.gz"'] },
  },
  'X-Key-Fingerprint': {
    required: true,
    description: '`sha256:` + the hex SHA-256 of the public key\'s DER (SubjectPublicKeyInfo) bytes: compare it with the fingerprint you were given out of band.',
    schema: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' },
  },
  'Content-Security-Policy': {
    required: true,
    description: 'The reference page loads only its own script, styles and this OpenAPI document, from this server (proxy/routes/docs-page.ts says why each source is there).',
    schema: { type: 'string', pattern: "^default-src 'none'; script-src 'self'; " },
  },
  'X-Content-Type-Options': { description: 'Browsers must not guess another type than Content-Type.', schema: { type: 'string', const: 'nosniff' }, required: true },
  Allow: { description: 'The methods the path supports.', schema: { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$', examples: ['GET, HEAD'] }, required: true },
};

export function headerComponents(): Record<string, HeaderDef> {
  return Object.fromEntries(Object.entries(HEADERS).map(([name, def]) => [name, { ...def }]));
}

/**
 * `headers` of a response: references to the components, except where this response's
 * required-ness differs from the component's (a reference cannot change it): those are written out.
 */
export function headerSet(required: readonly string[], optional: readonly string[] = []): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const name of [...required, ...optional]) {
    if (!(name in HEADERS)) throw new Error(`unknown header ${name}`);
    const isRequired = required.includes(name);
    out[name] = (HEADERS[name].required === true) === isRequired
      ? { $ref: `#/components/headers/${name}` }
      : { ...HEADERS[name], required: isRequired };
  }
  return out;
}

/** Headers a response to an API key carries; optional because other callers do not get them. */
export const RATE_HEADERS = ['RateLimit', 'RateLimit-Policy'] as const;
