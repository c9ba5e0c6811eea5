/**
 * The S3 client of the S3 store, configured by the AWS SDK's standard settings so one command works
 * against AWS S3, Cloudflare R2, Ceph or OpenStack Swift: AWS_ENDPOINT_URL, AWS_REGION,
 * AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or any other source of the SDK's default chains),
 * plus AWS_S3_FORCE_PATH_STYLE=true for servers that want path-style addressing (the name other S3
 * tools use; the SDK itself has no variable for it).
 *
 * @example
 *   const { client, endpoint } = createS3Client(process.env);
 *   // endpoint: 'http://127.0.0.1:35153' or 'the AWS endpoint of region eu-west-1'
 */
import { S3Client } from '@aws-sdk/client-s3';
import { CatalogError } from '../errors.js';

export const PATH_STYLE_SETTING = 'AWS_S3_FORCE_PATH_STYLE';

export interface S3ClientSettings {
  client: S3Client;
  /** Where requests go, for messages. */
  endpoint: string;
}

/** AWS_S3_FORCE_PATH_STYLE: true or false (any case), unset meaning false. */
function pathStyle(env: NodeJS.ProcessEnv): boolean {
  const raw = env[PATH_STYLE_SETTING];
  if (raw === undefined || raw === '') return false;
  const value = raw.trim().toLowerCase();
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new CatalogError('config', `${PATH_STYLE_SETTING} must be true or false, got ${JSON.stringify(raw)}`, { setting: PATH_STYLE_SETTING });
}

/**
 * The client the store uses. Checksums only where an operation requires them: the SDK's default
 * (a CRC32 on every upload) sends streamed bodies aws-chunked, which Swift's S3 layer answers with
 * 501; S3, R2 and Ceph accept both ways.
 */
export function createS3Client(env: NodeJS.ProcessEnv = process.env): S3ClientSettings {
  const forcePathStyle = pathStyle(env);
  // The standard settings are read from `env` (the SDK would read process.env itself), so a caller
  // can hand a store settings of its own; what `env` leaves unset falls back to the SDK's chains
  // (shared config files, profiles, instance roles).
  const endpointUrl = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
  const credentials =
    env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, sessionToken: env.AWS_SESSION_TOKEN || undefined }
      : undefined;
  const client = withoutNodeVersionWarning(
    () =>
      new S3Client({
        endpoint: endpointUrl,
        region: env.AWS_REGION || env.AWS_DEFAULT_REGION || undefined,
        credentials,
        forcePathStyle,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
  );
  const endpoint = endpointUrl ?? `the AWS endpoint of region ${env.AWS_REGION || '(AWS_REGION not set)'}`;
  return { client, endpoint };
}

/**
 * Runs `make` with the SDK's NodeVersionSupportWarning dropped (a notice that SDK releases from 2027
 * need Node 22, emitted once per process while a client is built): it would reach the CLI's stderr
 * on every command. Every other warning passes through unchanged.
 */
function withoutNodeVersionWarning<T>(make: () => T): T {
  const original = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning?.name === 'NodeVersionSupportWarning' ? warning.name : warning?.message;
    if (typeof text === 'string' && text.startsWith('NodeVersionSupportWarning')) return;
    return (original as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return make();
  } finally {
    process.emitWarning = original;
  }
}
