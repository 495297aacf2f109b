// The real browsers the browser suites run in, behind one small page
// interface: Debian's chromium through playwright-core (test/helpers/chromium.ts)
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
  evaluate<R, A = undefined>(fn: (arg: A) => R, arg?: A): Promise<R>;
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

/**
 * The part of Playwright's Page the playground suite drives (clicks, form
 * fields, keys, a screenshot). Chromium's page is Playwright's own; for
 * Firefox, playwrightLike() gives puppeteer's page the same calls.
 */
export interface DrivenPage extends TestPage {
  $(selector: string): Promise<unknown>;
  $$eval<R>(selector: string, fn: (elements: Element[]) => R): Promise<R>;
  textContent(selector: string): Promise<string | null>;
  click(selector: string): Promise<void>;
  fill(selector: string, value: string): Promise<void>;
  selectOption(selector: string, value: string): Promise<unknown>;
  inputValue(selector: string): Promise<string>;
  press(selector: string, key: string): Promise<void>;
  check(selector: string): Promise<void>;
  isVisible(selector: string): Promise<boolean>;
  focus(selector: string): Promise<void>;
  keyboard: { press(key: string): Promise<void> };
  locator(selector: string): { screenshot(): Promise<Uint8Array> };
}

/** The puppeteer calls behind DrivenPage's. */
interface PuppeteerPage {
  $(selector: string): Promise<{ screenshot(): Promise<Uint8Array>; click(): Promise<void> } | null>;
  $$eval<R>(selector: string, fn: (elements: Element[]) => R): Promise<R>;
  $eval<R, A>(selector: string, fn: (element: Element, arg: A) => R, arg?: A): Promise<R>;
  evaluate<R, A>(fn: (arg: A) => R, arg: A): Promise<R>;
  click(selector: string): Promise<void>;
  select(selector: string, value: string): Promise<string[]>;
  focus(selector: string): Promise<void>;
  locator(selector: string): { fill(value: string): Promise<void> };
  keyboard: { press(key: string): Promise<void>; down(key: string): Promise<void>; up(key: string): Promise<void> };
}

/** Playwright's calls over a puppeteer page (Firefox), as the playground suite uses them. */
export function playwrightLike(page: TestPage): DrivenPage {
  const p = page as unknown as PuppeteerPage;
  /** Playwright's key names: `Shift+Enter` is Enter with Shift held. */
  const pressKey = async (key: string) => {
    const parts = key.split('+');
    const last = parts.pop()!;
    for (const modifier of parts) await p.keyboard.down(modifier);
    await p.keyboard.press(last);
    for (const modifier of parts.reverse()) await p.keyboard.up(modifier);
  };
  // The page's own calls bound to it (puppeteer's classes keep private fields,
  // which an object inheriting from the page cannot reach).
  return {
    goto: page.goto.bind(page),
    waitForSelector: page.waitForSelector.bind(page),
    evaluate: page.evaluate.bind(page),
    on: page.on.bind(page),
    close: page.close.bind(page),
    $: (selector: string) => p.$(selector),
    $$eval: <R>(selector: string, fn: (elements: Element[]) => R) => p.$$eval(selector, fn),
    textContent: (selector: string) => p.$eval(selector, (el) => el.textContent),
    click: async (selector: string) => {
      // Playwright's `:text("…")` picks the element whose text contains it.
      const text = /^(.*):text\("((?:[^"\\]|\\.)*)"\)$/.exec(selector);
      if (text === null) return p.click(selector);
      const clicked = await p.evaluate(
        ([scope, wanted]) => {
          const found = Array.from(document.querySelectorAll(scope)).find((el) => (el.textContent ?? '').includes(wanted)) as HTMLElement | undefined;
          found?.click();
          return found !== undefined;
        },
        [text[1], text[2].replace(/\\(.)/g, '$1')] as const,
      );
      if (!clicked) throw new Error(`nothing matches ${selector}`);
    },
    fill: (selector: string, value: string) => p.locator(selector).fill(value),
    selectOption: (selector: string, value: string) => p.select(selector, value),
    inputValue: (selector: string) => p.$eval(selector, (el) => (el as HTMLInputElement).value),
    press: async (selector: string, key: string) => {
      await p.focus(selector);
      await pressKey(key);
    },
    check: async (selector: string) => {
      if (!(await p.$eval(selector, (el) => (el as HTMLInputElement).checked))) await p.click(selector);
    },
    isVisible: (selector: string) => p.$eval(selector, (el) => (el as HTMLElement).checkVisibility()),
    focus: (selector: string) => p.focus(selector),
    keyboard: { press: pressKey },
    locator: (selector: string) => ({
      screenshot: async () => {
        const element = await p.$(selector);
        if (element === null) throw new Error(`nothing matches ${selector}`);
        return element.screenshot();
      },
    }),
  } as unknown as DrivenPage;
}
