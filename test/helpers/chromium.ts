// Launches Debian's chromium (never a downloaded browser) through
// playwright-core, with a fresh profile per launch. In CI (CI=1) a missing
// chromium fails the browser tests; on a laptop they are skipped, loudly.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { describe } from 'vitest';

/** Debian's chromium package; `.ci/run` installs it when missing. */
export const CHROMIUM = '/usr/bin/chromium';

/** The flags every launch uses: headless, no sandbox (root in CI), and no background network or updates. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const inCI = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== '0' && process.env.CI !== 'false';
const present = existsSync(CHROMIUM);
if (!present && !inCI) {
  console.warn(`\n*** SKIPPING the real-browser tests: ${CHROMIUM} is missing (apt-get install chromium). In CI they fail instead. ***\n`);
}

/** `describe` when chromium is present or in CI (where a missing chromium must fail); `describe.skip` otherwise. */
export const describeBrowser: typeof describe = present || inCI ? describe : (describe.skip as typeof describe);

/** A running browser with its own profile directory; close() removes both. */
export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Starts chromium with a fresh --user-data-dir (playwright passes the directory to chromium as that flag). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (.ci/run does)`);
  const profile = mkdtempSync(join(tmpdir(), 'bloomwasm-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1200, height: 1400 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
