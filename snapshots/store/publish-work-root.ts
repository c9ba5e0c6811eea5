/**
 * The local working root of `catalog compile --out s3://bucket/prefix`: the compile writes its packs
 * and files there (it reads the previous snapshot from there too), then they are published to the
 * store. Default: `<cache>/catalog/work/<bucket>-<hash>` where `<cache>` is $XDG_CACHE_HOME, else
 * ~/.cache (Linux), ~/Library/Caches (macOS) or %LOCALAPPDATA% (Windows), and `<hash>` the first 12
 * hex digits of the SHA-256 of the endpoint, bucket and prefix: two prefixes of one bucket, or the
 * same bucket name on two servers, never share a working root. The bucket name is checked already
 * (blob-store.ts), so the folder name cannot leave the cache folder.
 *
 * @example
 *   defaultWorkRoot({ bucket: 'snaps', prefix: 'catalog/' }, { HOME: '/home/ops', AWS_ENDPOINT_URL: 'http://127.0.0.1:8080' })
 *   // '/home/ops/.cache/catalog/work/snaps-5b1e0c9a7d42'
 */
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';

export function defaultWorkRoot(where: { bucket: string; prefix: string }, env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const home = env.HOME || homedir();
  const cache =
    env.XDG_CACHE_HOME ||
    (platform === 'darwin' ? join(home, 'Library', 'Caches') : platform === 'win32' ? env.LOCALAPPDATA || join(home, 'AppData', 'Local') : join(home, '.cache'));
  const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || `aws:${env.AWS_REGION ?? ''}`;
  const hash = createHash('sha256').update(`${endpoint}\n${where.bucket}\n${where.prefix}`).digest('hex').slice(0, 12);
  return join(cache, 'catalog', 'work', `${where.bucket}-${hash}`);
}
