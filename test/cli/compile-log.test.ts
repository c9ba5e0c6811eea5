/**
 * The compile's report (cli/compile-log.ts): JSON phase lines with counts when stderr is not a
 * terminal, the live progress line when it is.
 */
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../../cli/io.js';
import { createCompileLog } from '../../cli/compile-log.js';
import { createCliLogger } from '../../cli/log.js';

function fakeIO(tty: boolean): CliIO & { err: string[] } {
  const err: string[] = [];
  return { err, env: {}, stdout: { write: () => true, isTTY: tty }, stderr: { write: (s: string) => err.push(s), isTTY: tty } };
}

describe('compile log', () => {
  it('when not on a terminal then each phase is logged when it starts and when it ends, with its count and duration', () => {
    let now = 1_000;
    const io = fakeIO(false);
    const log = createCompileLog(io, createCliLogger(io, 'info'), () => now);
    log.phase('cards and figures', 3);
    log.advance(2);
    log.advance(1);
    now += 250;
    log.note('skipped cards.ndjson:3: missing required field "name"');
    log.phase('publish', null);
    now += 5;
    log.compiled({ snapshotId: 's-1', objects: 12 });
    log.finish();
    const lines = io.err.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map(({ level, msg, phase, count, total, durationMs }) => ({ level, msg, phase, count, total, durationMs }))).toEqual([
      { level: 'info', msg: 'phase started', phase: 'cards and figures', count: undefined, total: 3, durationMs: undefined },
      { level: 'warn', msg: 'skipped cards.ndjson:3: missing required field "name"', phase: undefined, count: undefined, total: undefined, durationMs: undefined },
      { level: 'info', msg: 'phase finished', phase: 'cards and figures', count: 3, total: 3, durationMs: 250 },
      { level: 'info', msg: 'phase started', phase: 'publish', count: undefined, total: null, durationMs: undefined },
      { level: 'info', msg: 'phase finished', phase: 'publish', count: 0, total: null, durationMs: 5 },
      { level: 'info', msg: 'compile finished', phase: undefined, count: undefined, total: undefined, durationMs: undefined },
    ]);
    expect(lines.at(-1)).toMatchObject({ snapshotId: 's-1', objects: 12 });
  });

  it('when the compile fails part-way then the open phase is logged as stopped, with what it had done', () => {
    const io = fakeIO(false);
    const log = createCompileLog(io, createCliLogger(io, 'info'), () => 0);
    log.phase('read catalog', null);
    log.advance(40);
    log.finish();
    expect(JSON.parse(io.err.at(-1)!)).toMatchObject({ level: 'warn', msg: 'phase stopped', phase: 'read catalog', count: 40 });
  });

  it('on a terminal it is the live progress line, not JSON', () => {
    const io = fakeIO(true);
    const log = createCompileLog(io, createCliLogger(io, 'info'), () => 0);
    log.phase('cards and figures', 10);
    log.advance(5);
    log.compiled({ objects: 1 });
    log.finish();
    expect(io.err.join('')).toContain('cards and figures: 0/10');
    expect(io.err.some((l) => l.startsWith('{'))).toBe(false);
  });
});
