/**
 * SDK errors of the S3 store as CatalogErrors whose message tells the operator what to set: an
 * endpoint that cannot be reached, refused credentials, a missing bucket, missing settings. Others
 * keep the server's own code and message, as an I/O error.
 *
 * @example
 *   try { await client.send(cmd) } catch (err) { throw s3Error(err, { what: 'put packs/a.pack', location, endpoint }) }
 */
import { CatalogError } from '../errors.js';

export interface S3ErrorContext {
  /** The operation and key, e.g. `get packs/3f/3fa1.pack`. */
  what: string;
  /** `s3://bucket/prefix`. */
  location: string;
  /** Where requests went (AWS_ENDPOINT_URL or the region's AWS endpoint). */
  endpoint: string;
  bucket: string;
}

interface SdkError {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EPIPE']);
const REFUSED_CREDENTIALS = new Set(['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'Forbidden', 'InvalidToken', 'ExpiredToken']);

/** The SDK's name for a missing object (GetObject says NoSuchKey, HeadObject only NotFound). */
export function isNoSuchKey(err: unknown): boolean {
  const e = err as SdkError;
  return e?.name === 'NoSuchKey' || (e?.name === 'NotFound' && e.$metadata?.httpStatusCode === 404);
}

export function s3Error(err: unknown, ctx: S3ErrorContext): CatalogError {
  if (err instanceof CatalogError) return err;
  const e = (err ?? {}) as SdkError;
  const status = e.$metadata?.httpStatusCode;
  const detail = `${e.name ?? 'Error'}${status ? ` ${status}` : ''}: ${e.message ?? String(err)}`;
  const make = (code: ConstructorParameters<typeof CatalogError>[0], message: string) =>
    new CatalogError(code, `${ctx.location}: ${ctx.what}: ${message}`, { location: ctx.location, endpoint: ctx.endpoint, sdk: e.name }, { cause: err });
  const errno = e.code ?? (err as { cause?: SdkError })?.cause?.code;
  if ((errno && UNREACHABLE.has(errno)) || e.name === 'TimeoutError') {
    return make('unavailable', `cannot reach the S3 endpoint ${ctx.endpoint} (${errno ?? e.name}); check AWS_ENDPOINT_URL and that the server runs`);
  }
  if (e.name === 'CredentialsProviderError') {
    return make('config', 'no S3 credentials found; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or an AWS profile)');
  }
  if (/region is missing/i.test(e.message ?? '')) return make('config', 'no region; set AWS_REGION (us-east-1 for most S3-compatible servers)');
  if (e.name === 'NoSuchBucket') {
    return make('config', `the bucket ${ctx.bucket} does not exist at ${ctx.endpoint}; create it, or fix the bucket of the s3:// location (and AWS_ENDPOINT_URL)`);
  }
  if ((e.name && REFUSED_CREDENTIALS.has(e.name)) || status === 403) {
    return make('forbidden', `the S3 server at ${ctx.endpoint} refused the credentials (${detail}); check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and their rights on bucket ${ctx.bucket}`);
  }
  if (e.name === 'PermanentRedirect' || e.name === 'AuthorizationHeaderMalformed' || status === 301) {
    return make('config', `the bucket ${ctx.bucket} is in another region (${detail}); set AWS_REGION to the bucket's region`);
  }
  if (status === 400 && /virtual|host/i.test(e.message ?? '')) {
    return make('config', `${detail}; a server that wants path-style addressing needs AWS_S3_FORCE_PATH_STYLE=true`);
  }
  return make('io', detail);
}
