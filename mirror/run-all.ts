/**
 * Runs `task` over `items`, `concurrency` at a time, and stops at the first failure: nothing queued
 * starts after it, the tasks in flight are waited for (so none is still retrying against a closed
 * client when the command exits), then the first error is thrown.
 *
 * @example
 *   await runAll(packs, 4, async (p) => fetchPack(p));
 */
import pLimit from 'p-limit';

export async function runAll<T>(items: readonly T[], concurrency: number, task: (item: T) => Promise<void>): Promise<void> {
  const limit = pLimit(Math.max(1, concurrency));
  let failure: { error: unknown } | null = null;
  await Promise.allSettled(items.map((item) => limit(async () => {
    if (failure !== null) return;
    try {
      await task(item);
    } catch (error) {
      // Not limit.clearQueue(): the promises of cleared tasks never settle. Queued tasks return at once instead.
      failure ??= { error };
      throw error;
    }
  })));
  if (failure !== null) throw (failure as { error: unknown }).error;
}
