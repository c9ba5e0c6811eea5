/**
 * One attempt of a delivery: a POST with node:http(s), no connection kept (a receiver is called a
 * few times a day; a pooled socket would only hold the process open), redirects not followed (a
 * 3xx is a failure: the registered URL is the one the operator checked), cut off after `timeoutMs`
 * or when `signal` aborts. Only the answer's status is read; its body is discarded.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export type PostResult =
  | { kind: 'answered'; status: number }
  | { kind: 'failed'; error: string }
  | { kind: 'aborted' };

export const USER_AGENT = 'catalog-webhooks/1';

export function postOnce(url: string, body: string, headers: Record<string, string>, timeoutMs: number, signal: AbortSignal): Promise<PostResult> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      req.destroy();
      resolve(result);
    };
    const req = send(target, {
      method: 'POST', agent: false,
      headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), 'User-Agent': USER_AGENT },
    }, (res) => {
      res.resume();
      finish({ kind: 'answered', status: res.statusCode ?? 0 });
    });
    const timer = setTimeout(() => finish({ kind: 'failed', error: `no answer within ${timeoutMs} ms` }), timeoutMs);
    timer.unref();
    const onAbort = () => finish({ kind: 'aborted' });
    signal.addEventListener('abort', onAbort);
    req.on('error', (err: NodeJS.ErrnoException) => finish({ kind: 'failed', error: err.code ? `${err.code}: ${err.message}` : err.message }));
    req.end(body);
  });
}
