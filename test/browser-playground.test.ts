// The playground page, served by `bloom serve`'s server on loopback and
// driven in real browsers (Chromium and Firefox): verdicts, highlighted positions, the worked
// examples' published numbers, sizing from n and p, and the chart.

import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { BloomFilter, falsePositiveRate, optimalBits, optimalHashes } from '../dist/reference/index.js';
import { BROWSERS, playwrightLike, type DrivenPage, type TestBrowser } from './helpers/browsers.js';
import { countColour, decodePng } from './helpers/png.js';
import { EXAMPLES } from '../src/playground/examples.js';
import { mulberry32 } from '../src/cli/mulberry32.js';

/** The grid cells currently highlighted, by index. */
async function hitCells(page: DrivenPage): Promise<number[]> {
  return page.$$eval('#grid .cell.hit', (cells) => cells.map((c) => Number((c as HTMLElement).dataset.index)).sort((a, b) => a - b));
}

/**
 * What a fresh page measures after the SeenFilter example's third add: its
 * probes (src/playground/playground.ts) are probe-<n>-<word> from a seeded
 * generator, 2,000 a measure, one measure per add.
 */
function seenFilterMeasured(): string {
  const random = mulberry32(0x9e3779b9);
  const word = (): string => Math.floor(random() * 2 ** 32).toString(36).padStart(7, '0');
  const filter = new BloomFilter(16, 3, { scheme: 'poly' });
  let probe = 0;
  let rate = 0;
  for (const item of ['cats.io', 'dogs.io', 'owls.io']) {
    filter.add(item);
    let maybes = 0;
    for (let i = 0; i < 2000; i++) if (filter.has(`probe-${probe++}-${word()}`)) maybes++;
    rate = maybes / 2000;
  }
  return `${(rate * 100).toPrecision(3)}%`;
}

async function text(page: DrivenPage, selector: string): Promise<string> {
  return ((await page.textContent(selector)) ?? '').replace(/\s+/g, ' ').trim();
}

for (const { name, launch, describe } of BROWSERS) describe(`the playground in ${name}`, () => {
  let browser: TestBrowser;
  let page: DrivenPage;
  let server: { url: string; close(): Promise<void> };
  const errors: string[] = [];

  beforeAll(async () => {
    const { startServer } = await import('../dist/cli/serve.js');
    server = await startServer(0);
    browser = await launch();
    const opened = await browser.newPage();
    // Chromium's page is Playwright's; Firefox's (puppeteer) gets its calls.
    page = name === 'Chromium' ? (opened as unknown as DrivenPage) : playwrightLike(opened);
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
  });

  beforeEach(async () => {
    await page.goto(server.url);
    await page.waitForSelector('html[data-ready]');
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('loads the SeenFilter exercise with one click: bitsSet 9, the verdicts, and bats.io marked a false positive', async () => {
    await page.click('#example-seen-filter');
    expect(await text(page, '#stat-set')).toBe('9');
    expect(await text(page, '#stat-added')).toBe('3');
    expect(await page.inputValue('#bits')).toBe('16');
    expect(await page.inputValue('#scheme')).toBe('poly');
    const log = await page.$$eval('#log li', (lis) => lis.map((li) => (li.textContent ?? '').trim()));
    expect(log).toContain('bitsSet() → 9');
    expect(log).toContain('add "cats.io" → new, positions 1, 2, 3');
    expect(log).toContain('has "dogs.io" → MAYBE (added)');
    expect(log).toContain('has "yaks.io" → NO (positions 2, 15, 12)');
    expect(log).toContain('has "bats.io" → MAYBE, a false positive');
    // The last check stays on screen, with bats.io's positions 7, 1, 11 lit.
    expect(await text(page, '#verdict .token')).toBe('MAYBE');
    expect(await text(page, '#verdict .fp')).toBe('false positive');
    expect(await hitCells(page)).toEqual([1, 7, 11]);
    const on = await page.$$eval('#grid .cell.on', (cells) => cells.map((c) => Number((c as HTMLElement).dataset.index)));
    expect(on).toEqual([1, 2, 3, 5, 7, 8, 9, 11, 15]);
    // Choosing a log line brings its item back: yaks.io needs 2, 15, 12.
    await page.click('#log button:text("has \\"yaks.io\\"")');
    expect(await hitCells(page)).toEqual([2, 12, 15]);
    // Its three rates, and the line under the chart that says why they differ.
    expect(await text(page, '#stat-rate')).toBe('17.8%');
    expect(await text(page, '#chart-summary')).toBe(`After 3 items: measured ${seenFilterMeasured()}, theory 7.96%.`);
    expect(await page.isVisible('#rates-note')).toBe(true);
    expect(await text(page, '#rates-note')).toBe(EXAMPLES['seen-filter'].ratesNote!.replace(/\s+/g, ' '));
    // The SSTable example has nothing to explain, and a filter of one's own ends the note.
    await page.click('#example-sstable');
    expect(await page.isVisible('#rates-note')).toBe(false);
    await page.click('#example-seen-filter');
    await page.click('#create');
    expect(await page.isVisible('#rates-note')).toBe(false);
    expect(errors).toEqual([]);
  });

  it('replays the SeenFilter exercise step by step, bit by bit', async () => {
    await page.click('#example-seen-filter');
    await page.click('#step');
    expect(await text(page, '#stat-set')).toBe('0');
    expect(await text(page, '#step')).toBe('Next: add “cats.io” (1 of 7)');
    const seen: [string, number[], string][] = [];
    for (let i = 0; i < 7; i++) {
      await page.click('#step');
      seen.push([await text(page, '#stat-set'), await hitCells(page), await text(page, '#verdict .token')]);
    }
    expect(seen).toEqual([
      ['3', [1, 2, 3], 'ADDED'],
      ['6', [7, 8, 9], 'ADDED'],
      ['9', [5, 11, 15], 'ADDED'],
      ['9', [5, 11, 15], 'bitsSet()'],
      ['9', [7, 8, 9], 'MAYBE'],
      ['9', [2, 12, 15], 'NO'],
      ['9', [1, 7, 11], 'MAYBE'],
    ]);
    expect(await text(page, '#verdict .fp')).toBe('false positive');
    expect(await text(page, '#step')).toBe('Replay it step by step');
    expect(await text(page, '#step-status')).toBe('The SeenFilter exercise: all 7 calls done.');
  });

  it('loads the SSTable command protocol example: apple sets 30, 24, 18 and banana answers NO on 9, 51, 93', async () => {
    await page.click('#example-sstable');
    expect(await text(page, '#stat-set')).toBe('3');
    expect(await text(page, '#verdict')).toBe('NO bits 9, 51, 93 are 0, so “banana” was certainly never added.');
    expect(await hitCells(page)).toEqual([9, 51, 93]);
    const on = await page.$$eval('#grid .cell.on', (cells) => cells.map((c) => Number((c as HTMLElement).dataset.index)));
    expect(on).toEqual([18, 24, 30]);
  });

  it('draws an sbbf filter as blocks of eight 32-bit rows; an item lights one bit in each row of one block', async () => {
    await page.fill('#bits', '1000');
    await page.fill('#hashes', '3');
    await page.selectOption('#scheme', 'sbbf');
    // Choosing sbbf moves the form to k = 8 and whole 256-bit blocks.
    expect([await page.inputValue('#bits'), await page.inputValue('#hashes')]).toEqual(['1024', '8']);
    await page.press('#hashes', 'Enter');
    expect(await page.$$eval('#grid .block', (blocks) => blocks.map((b) => b.children.length))).toEqual([256, 256, 256, 256]);
    expect(await text(page, '#grid-caption')).toMatch(/^1,024 bits in 4 blocks of 256 bits\. Each block is eight 32-bit words/);
    const twin = new BloomFilter(1024, 8, { scheme: 'sbbf' });
    await page.fill('#item', 'abc');
    const hits = await hitCells(page);
    expect(hits).toEqual(twin.positions('abc'));
    expect(hits).toEqual([269, 299, 343, 373, 390, 430, 477, 509]);
    await page.press('#item', 'Enter');
    expect(await text(page, '#stat-set')).toBe('8');
    // A larger filter: one cell per block, and the item's one block lit.
    await page.fill('#bits', String(256 * 1000));
    await page.press('#hashes', 'Enter');
    expect(await page.$$eval('#grid .cell', (cells) => cells.length)).toBe(1000);
    await page.fill('#item', 'abc');
    expect(await hitCells(page)).toEqual([Math.floor(new BloomFilter(256_000, 8, { scheme: 'sbbf' }).positions('abc')[0] / 256)]);
    expect(errors).toEqual([]);
  });

  it('adds and checks typed items by keyboard, with MAYBE/NO verdicts and k highlighted cells', async () => {
    await page.fill('#bits', '500');
    await page.fill('#hashes', '4');
    await page.selectOption('#scheme', 'xxh64');
    await page.press('#hashes', 'Enter');
    expect(await text(page, '#size-summary')).toMatch(/^m = 500 bits, k = 4, scheme xxh64: 63 bytes\./);
    const twin = new BloomFilter(500, 4);

    await page.fill('#item', 'hello');
    // Typing alone highlights the item's k positions.
    expect(await hitCells(page)).toEqual([...new Set(twin.positions('hello'))].sort((a, b) => a - b));
    expect(await hitCells(page)).toHaveLength(4);
    await page.press('#item', 'Enter');
    expect(await text(page, '#verdict .token')).toBe('ADDED');
    expect(await text(page, '#stat-set')).toBe('4');
    await page.press('#item', 'Shift+Enter');
    expect(await text(page, '#verdict .token')).toBe('MAYBE');
    expect(await page.$('#verdict .fp')).toBeNull();
    expect(await text(page, '#verdict')).toContain('“hello” was added');

    twin.add('hello');
    const absent = 'never added';
    expect(twin.has(absent)).toBe(false);
    await page.fill('#item', absent);
    await page.click('#check');
    expect(await text(page, '#verdict .token')).toBe('NO');
    expect(await text(page, '#verdict')).toContain('was certainly never added');
    expect(await hitCells(page)).toEqual([...new Set(twin.positions(absent))].sort((a, b) => a - b));

    // Keyboard reach: Tab walks from the item to Add and Check, and Enter on a button works.
    await page.focus('#item');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('add');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('check');
    await page.focus('#example-seen-filter');
    await page.keyboard.press('Enter');
    expect(await text(page, '#stat-set')).toBe('9');
  });

  it('sizes the filter from n and p with the library math', async () => {
    await page.check('input[name=mode][value=np]');
    expect(await page.isVisible('#capacity')).toBe(true);
    expect(await page.isVisible('#bits')).toBe(false);
    await page.fill('#capacity', '1000');
    await page.fill('#rate', '0.01');
    await page.click('#create');
    const m = optimalBits(1000, 0.01);
    const k = optimalHashes(m, 1000);
    expect([m, k]).toEqual([9586, 7]);
    expect(await page.inputValue('#bits')).toBe(String(m));
    expect(await page.inputValue('#hashes')).toBe(String(k));
    expect(await text(page, '#size-summary')).toBe(
      'm = 9,586 bits, k = 7, scheme xxh64: 1,199 bytes. A Set of 1,000 items of 20 characters needs about 47 KiB.',
    );
    // A bad p shows the library's own message and keeps the old filter.
    await page.fill('#rate', '2');
    await page.click('#create');
    expect(await text(page, '#params-error')).toBe('falsePositiveRate must be a number in (0, 1); got 2');
  });

  it('plots measured false positives against the theory after 1,000 random items', async () => {
    await page.click('#bulk');
    expect(await text(page, '#stat-added')).toBe('1,000');
    const summary = await text(page, '#chart-summary');
    const match = /^After 1,000 items: measured ([\d.]+)%, theory ([\d.]+)%\.$/.exec(summary);
    expect(match).not.toBeNull();
    // m = 2000, k = 3, n = 1000: theory (1 - e^-1.5)^3 = 46.9%; 2,000 probes
    // keep the measured share within a few points of it (sd about 1.1 points).
    expect(match![2]).toBe((falsePositiveRate(2000, 1000, 3) * 100).toPrecision(3));
    expect(match![2]).toBe('46.9');
    expect(Math.abs(Number(match![1]) - Number(match![2]))).toBeLessThan(6);
    const stats = await Promise.all(['#stat-fill', '#stat-estimate', '#stat-rate'].map((s) => text(page, s)));
    const [fill, estimate] = [Number(stats[0]), Number(stats[1].replace(/,/g, ''))];
    expect(fill).toBeGreaterThan(0.7);
    expect(Math.abs(estimate - 1000)).toBeLessThan(60);
    expect(stats[2]).toBe(`${(Math.pow(fill, 3) * 100).toPrecision(3)}%`);

    const image = decodePng(await page.locator('#chart').screenshot());
    const pixels = image.width * image.height;
    let ink = 0;
    for (let i = 0; i < image.rgba.length; i += 4) if (image.rgba[i] + image.rgba[i + 1] + image.rgba[i + 2] < 600) ink++;
    expect(ink / pixels).toBeGreaterThan(0.01);
    expect(countColour(image, '#1e3a8a')).toBeGreaterThan(300); // the theory curve
    expect(countColour(image, '#c2410c')).toBeGreaterThan(100); // the measured dots
  });

  it('labels every input', async () => {
    const unlabelled = await page.$$eval('input, select', (els) =>
      els.filter((el) => el.closest('label') === null && document.querySelector(`label[for="${el.id}"]`) === null).map((el) => el.id || el.outerHTML),
    );
    expect(unlabelled).toEqual([]);
    expect(errors).toEqual([]);
  });
});
