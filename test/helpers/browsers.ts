// The real browsers the browser suites run in, behind one small page
// interface: Debian's chromium through playwright-core (helpers/chromium.ts)
// and Debian's firefox-esr through puppeteer-core over WebDriver BiDi
// (Playwright's Firefox is a patched build that cannot be installed here).
// Neither is ever downloaded. In CI a missing browser fails its suites; on
// a laptop they are skipped, loudly.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { describe } from 'vitest';
import { CHROMIUM, launchChromium } from './chromium.js';

/** Debian's firefox-esr package; `.ci/run` installs it when missing. */
export const FIREFOX = '/usr/bin/firefox-esr';

/** What the suites use of a page, the same in playwright and puppeteer. */
export interface TestPage {
  goto(url: string): Promise<{ headers(): Record<string, string> } | null>;
  waitForSelector(selector: string): Promise<unknown>;
  evaluate<R, A>(fn: (arg: A) => R, arg: A): Promise<R>;
  on(event: 'pageerror', handler: (error: Error) => void): unknown;
  on(event: 'console', handler: (message: { type(): string; text(): string }) => void): unknown;
  close(): Promise<void>;
}

/** A running browser with a fresh profile; close() removes both. */
export interface TestBrowser {
  newPage(): Promise<TestPage>;
  close(): Promise<void>;
}

/** Starts firefox-esr headless with a fresh profile, over WebDriver BiDi. */
async function launchFirefox(): Promise<TestBrowser> {
  if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} is missing: install Debian's firefox-esr package (.ci/run does)`);
  const profile = mkdtempSync(join(tmpdir(), 'bloomwasm-firefox-'));
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true, userDataDir: profile });
  return {
    newPage: async () => (await browser.newPage()) as unknown as TestPage,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Chromium behind the same interface. */
async function launchChromiumBrowser(): Promise<TestBrowser> {
  const browser = await launchChromium();
  return { newPage: async () => (await browser.context.newPage()) as unknown as TestPage, close: () => browser.close() };
}

const inCI = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== '0' && process.env.CI !== 'false';

/** Each browser: its name, how to launch it, and `describe` or, when it is missing outside CI, `describe.skip`. */
export const BROWSERS = [
  { name: 'Chromium', binary: CHROMIUM, launch: launchChromiumBrowser },
  { name: 'Firefox', binary: FIREFOX, launch: launchFirefox },
].map((b) => {
  const present = existsSync(b.binary);
  if (!present && !inCI) console.warn(`\n*** SKIPPING the ${b.name} suites: ${b.binary} is missing. In CI they fail instead. ***\n`);
  return { ...b, describe: (present || inCI ? describe : describe.skip) as typeof describe };
});

/** Waits until `fn` returns something other than undefined in the page (polling: the two libraries' waitForFunction differ). */
export async function waitForValue<R>(page: TestPage, fn: () => R | undefined, timeoutMs = 60_000): Promise<R> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await page.evaluate(fn, undefined);
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`the page gave no value in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
