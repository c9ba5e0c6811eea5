/**
 * Headless Chromium for the browser tests, started and stopped by scripts/servers/chromium.sh (with
 * a state folder of its own per run) and driven with puppeteer-core over its DevTools endpoint.
 * Where Chromium is not installed the script's `install` is tried once (Debian, root); where that
 * fails too, `startChromium` returns the reason and the test skips with it, or fails where the run
 * requires a browser (CI=true, or CATALOG_REQUIRE_CHROMIUM=1 as `.ci/run` sets).
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { REPO, tempDir } from './cli.js';

const SCRIPT = join(REPO, 'scripts', 'servers', 'chromium.sh');

export interface RunningChromium {
  browser: Browser;
  stop(): Promise<void>;
}

function script(command: string, state: string): { ok: boolean; out: string; err: string } {
  const r = spawnSync('bash', [SCRIPT, command], { encoding: 'utf8', env: { ...process.env, CHROMIUM_STATE: state }, timeout: 600_000 });
  return { ok: r.status === 0, out: r.stdout.trim(), err: r.stderr.trim() };
}

export function chromiumRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CI === 'true' || env.CATALOG_REQUIRE_CHROMIUM === '1';
}

/** The browser, or why there is none (Chromium cannot be installed here). */
export async function startChromium(): Promise<RunningChromium | { unavailable: string }> {
  const state = tempDir('catalog-chromium-');
  if (!script('bin', state).ok) {
    const install = script('install', state);
    if (!install.ok) {
      rmSync(state, { recursive: true, force: true });
      return { unavailable: `Chromium is not installed and could not be installed (${install.err.split('\n').at(-1)}); run: bash scripts/servers/chromium.sh install` };
    }
  }
  let browser: Browser;
  try {
    const started = script('start', state);
    if (!started.ok) throw new Error(`chromium.sh start failed: ${started.err}`);
    browser = await puppeteer.connect({ browserWSEndpoint: started.out.split('\n').at(-1)!, defaultViewport: { width: 1280, height: 900 } });
  } catch (error) {
    // Never leave a started browser behind.
    script('stop', state);
    rmSync(state, { recursive: true, force: true });
    throw error;
  }
  return {
    browser,
    async stop() {
      await browser.disconnect();
      const stopped = script('stop', state);
      rmSync(state, { recursive: true, force: true });
      if (!stopped.ok) throw new Error(`chromium.sh stop failed: ${stopped.err}`);
    },
  };
}

/** Skips the test with `reason`, or fails it where a browser is required (CI). */
export function chromiumMissing(ctx: { skip(note?: string): void }, reason: string, what: string): void {
  if (chromiumRequired()) throw new Error(`${reason}; this run requires it (CI): ${what} cannot run`);
  ctx.skip(`${reason}: ${what} did not run`);
}
