/**
 * The process layout shared by the reference servers of the proxy benchmark (bare-node.mjs,
 * hono-floor.mjs), the same as `catalog serve --workers N`: a primary that forks N workers sharing
 * one port, prints `listening on <url>` once (what scripts/lib/bench-run.sh waits for) and stops
 * the workers on SIGTERM. Each worker calls `startWorker`, which must listen on port 0 of 127.0.0.1
 * (cluster gives every worker the same port).
 */
import cluster from 'node:cluster';

export function runCluster(workers, startWorker) {
  if (!cluster.isPrimary) {
    startWorker();
    return;
  }
  for (let i = 0; i < workers; i++) cluster.fork();
  let announced = false;
  cluster.on('listening', (_worker, address) => {
    if (announced) return;
    announced = true;
    process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
  });
  process.on('SIGTERM', () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
    process.exit(0);
  });
}
