/**
 * Renders a ProgressSink for a terminal: one line rewritten in place (phase, count, rate, ETA), at
 * most ~10 times a second. When stderr is not a terminal it stays quiet except for notes, so logs of
 * the nightly job hold only what matters.
 */
import type { ProgressSink } from '../compiler/compile/progress.js';
import type { CliIO } from './io.js';

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

export function createTerminalProgress(io: CliIO, clock: () => number = Date.now): ProgressSink & { finish(): void } {
  const tty = io.stderr.isTTY === true;
  let phase = '';
  let total: number | null = null;
  let done = 0;
  let phaseStart = clock();
  let lastDraw = 0;
  let drawn = false;

  const draw = (force: boolean) => {
    if (!tty) return;
    const t = clock();
    if (!force && t - lastDraw < 100) return;
    lastDraw = t;
    const elapsed = (t - phaseStart) / 1000;
    const rate = elapsed > 0 ? done / elapsed : 0;
    let line = `${phase}: ${done.toLocaleString('en-US')}`;
    if (total !== null) line += `/${total.toLocaleString('en-US')}`;
    if (rate > 0) line += `  ${Math.round(rate).toLocaleString('en-US')}/s`;
    if (total !== null && rate > 0 && done < total) line += `  ETA ${formatDuration(((total - done) / rate) * 1000)}`;
    io.stderr.write(`\r\x1b[2K${line}`);
    drawn = true;
  };
  const clear = () => {
    if (tty && drawn) io.stderr.write('\r\x1b[2K');
    drawn = false;
  };

  return {
    phase(name, newTotal) {
      draw(true);
      clear();
      phase = name;
      total = newTotal;
      done = 0;
      phaseStart = clock();
      draw(true);
    },
    advance(units) {
      done += units;
      draw(false);
    },
    note(line) {
      clear();
      io.stderr.write(`${line}\n`);
      draw(true);
    },
    finish() {
      clear();
    },
  };
}
