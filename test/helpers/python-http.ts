/**
 * `python3 -m http.server` serving a folder on a free loopback port: the plain static file server
 * every machine here has. It speaks HTTP/1.0, so it closes the connection after every answer.
 */
import { spawn } from 'node:child_process';

export interface RunningPythonHttp {
  url: string;
  stop(): Promise<void>;
}

export function startPythonHttp(root: string): Promise<RunningPythonHttp> {
  // -u: the "Serving HTTP on ... port N" line (port 0 picks a free one) must arrive unbuffered.
  const child = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', root], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`python3 -m http.server did not start within 10 s: ${out}`));
    }, 10_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`python3 -m http.server exited with ${code}: ${out}`));
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      const port = /port (\d+)/.exec(out)?.[1];
      if (port === undefined) return;
      clearTimeout(timer);
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolve({ url: `http://127.0.0.1:${port}`, stop });
    });
  });
}
