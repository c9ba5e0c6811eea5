import { describe, it, expect } from 'vitest';
import { createTerminalProgress, formatDuration } from '../../cli/progress.js';
import type { CliIO } from '../../cli/io.js';

function fakeIO(tty: boolean): CliIO & { err: string[]; out: string[] } {
  const err: string[] = [];
  const out: string[] = [];
  return {
    err,
    out,
    env: {},
    stdout: { write: (s: string) => out.push(s), isTTY: tty },
    stderr: { write: (s: string) => err.push(s), isTTY: tty },
  };
}

describe('terminal progress', () => {
  it('on a terminal redraws one line with phase, count, rate and ETA', () => {
    let now = 0;
    const io = fakeIO(true);
    const p = createTerminalProgress(io, () => now);
    p.phase('cards and figures', 1000);
    now = 2000;
    p.advance(250);
    const last = io.err[io.err.length - 1];
    expect(last).toContain('\r');
    expect(last).toContain('cards and figures: 250/1,000');
    expect(last).toContain('125/s');
    expect(last).toContain('ETA 6s');
    p.finish();
  });

  it('redraws at most every 100 ms', () => {
    let now = 0;
    const io = fakeIO(true);
    const p = createTerminalProgress(io, () => now);
    p.phase('x', null);
    const before = io.err.length;
    for (let i = 0; i < 50; i++) p.advance(1);
    expect(io.err.length).toBe(before);
    now = 150;
    p.advance(1);
    expect(io.err.length).toBe(before + 1);
  });

  it('when not a terminal it prints only notes, one per line', () => {
    const io = fakeIO(false);
    const p = createTerminalProgress(io);
    p.phase('cards', 10);
    p.advance(5);
    p.note('skipped cards.ndjson:3: missing required field "name"');
    p.finish();
    expect(io.err).toEqual(['skipped cards.ndjson:3: missing required field "name"\n']);
  });

  it('formats durations for humans', () => {
    expect(formatDuration(4_400)).toBe('4s');
    expect(formatDuration(125_000)).toBe('2m05s');
    expect(formatDuration(3_900_000)).toBe('1h05m');
  });
});
