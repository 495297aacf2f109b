// `bloom demo`: a crawler's seen-set on a synthetic web, the job Bloom
// filters were first sold for (seeds 000, 003 and 004). A deterministic
// generator defines a web of --pages pages whose out-degrees follow a power
// law and whose link targets favour popular pages, so most links a crawler
// finds point at pages it has already seen. A breadth-first crawl uses a
// filter sized by forCapacity(pages, fpp) as its seen-set, while an exact
// Set runs alongside as ground truth: every link the filter calls "seen"
// but the Set has never held is a page wrongly skipped.

import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { BloomFilter } from '../filter/filter.js';
import { guard, intOption, parse, rateOption } from './common.js';
import { mulberry32 } from './mulberry32.js';
import { grouped } from './grouped.js';

/** The help text of `bloom demo`. */
export const HELP = `Usage: bloom demo [--pages N] [--fpp P] [--seed S]

Crawls a synthetic web breadth-first with a Bloom filter as the seen-set and
an exact Set alongside as ground truth, then reports pages discovered and
fetched, duplicate links skipped, pages wrongly skipped (false positives)
next to the predicted count, the filter's memory against the Set's, and the
crawl speed. The web is a pure function of --pages and --seed.

Options:
  --pages N   pages in the synthetic web (default 1000000)
  --fpp P     falsePositiveRate: the filter's target false-positive rate at
              N items (default 0.01), as in BloomFilter.forCapacity
  --seed S    the generator's seed (default 1)
  -h, --help  show this help
`;

/** Mean out-degree is MIN_LINKS * (ALPHA - 1) / (ALPHA - 2) = 5 links per page (Pareto). */
const MIN_LINKS = 2;
const ALPHA = 2.67;
const MAX_LINKS = 200;
/** Share of links that go to a page drawn by popularity (the rest are uniform). */
const POPULAR_SHARE = 0.7;

/** The synthetic web: page i's links are a pure function of (seed, i), so nothing is stored. */
export class SyntheticWeb {
  /** Pages in the web. */
  readonly pages: number;
  private readonly seed: number;

  constructor(pages: number, seed: number) {
    this.pages = pages;
    this.seed = seed;
  }

  /** Page i's URL. */
  url(i: number): string {
    return `https://site${(Math.imul(i, 2654435761) >>> 0) % 49999}.example/page/${i}`;
  }

  /**
   * Page i's out-links, written into `into`; returns how many. The first goes
   * to page i+1, so a crawl from page 0 can reach every page; the out-degree
   * is Pareto(ALPHA) from MIN_LINKS; a target is popular (index N*u^3, dense
   * near 0) with chance POPULAR_SHARE, else uniform.
   */
  links(i: number, into: Int32Array): number {
    const random = mulberry32(Math.imul(this.seed, 0x9e3779b1) ^ Math.imul(i + 1, 0x85ebca77));
    const n = this.pages;
    const degree = Math.min(MAX_LINKS, Math.floor(MIN_LINKS * Math.pow(1 - random(), -1 / (ALPHA - 1))));
    into[0] = (i + 1) % n;
    for (let j = 1; j < degree; j++) {
      const u = random();
      into[j] = random() < POPULAR_SHARE ? Math.floor(n * u * u * u) : Math.floor(n * u);
    }
    return degree;
  }
}

/** The demo's measurements. */
export interface CrawlReport {
  pages: number;
  bits: number;
  hashes: number;
  discovered: number;
  fetched: number;
  linksSeen: number;
  duplicatesSkipped: number;
  wronglySkipped: number;
  predictedWronglySkipped: number;
  filterBytes: number;
  setBytes: number;
  seconds: number;
}

/** A garbage collector for measuring the Set, when V8 lets us expose one. */
function exposeGc(): (() => void) | null {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return null;
  }
}

/** Crawls the web breadth-first from page 0 with a filter seen-set and an exact Set beside it. */
export function crawl(web: SyntheticWeb, fpp: number): CrawlReport {
  const gc = exposeGc();
  const filter = BloomFilter.forCapacity(web.pages, fpp);
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  let exact: Set<string> | null = new Set<string>();
  const queue = new Int32Array(web.pages);
  const links = new Int32Array(MAX_LINKS);
  let head = 0;
  let tail = 0;
  let linksSeen = 0;
  let duplicates = 0;
  let wrong = 0;
  let predicted = 0;
  let added = 0;
  const m = filter.bits;
  const k = filter.hashes;
  const admit = (page: number): void => {
    const url = web.url(page);
    linksSeen++;
    const known = exact!.has(url);
    // The chance that a new URL is taken for seen with `added` items in the filter,
    // (1 - e^(-kn/m))^k (Bloom, 1970; see falsePositiveRate in src/filter/sizing.ts).
    if (!known) {
      predicted += Math.pow(1 - Math.exp((-k * added) / m), k);
      exact!.add(url);
    }
    if (filter.add(url)) {
      added++;
      queue[tail++] = page;
    } else if (known) {
      duplicates++;
    } else {
      wrong++;
    }
  };
  admit(0);
  while (head < tail) {
    const page = queue[head++];
    const n = web.links(page, links);
    for (let j = 0; j < n; j++) admit(links[j]);
  }
  const seconds = (performance.now() - started) / 1000;
  gc?.();
  const heapWithSet = process.memoryUsage().heapUsed;
  const discovered = exact.size;
  exact = null;
  gc?.();
  const heapWithout = process.memoryUsage().heapUsed;
  return {
    pages: web.pages,
    bits: filter.bits,
    hashes: filter.hashes,
    discovered,
    fetched: head,
    linksSeen,
    duplicatesSkipped: duplicates,
    wronglySkipped: wrong,
    predictedWronglySkipped: predicted,
    filterBytes: Math.ceil(filter.bits / 8),
    setBytes: gc ? heapWithSet - heapWithout : heapWithSet - heapBefore,
    seconds,
  };
}

const n = grouped;
const mib = (bytes: number): string =>
  bytes < 2 ** 20 ? `${(bytes / 2 ** 10).toFixed(1)} KiB` : `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** The printed report. */
export function formatReport(r: CrawlReport, fpp: number, seed: number): string {
  const rows: [string, string][] = [
    ['pages discovered', n(r.discovered)],
    ['pages fetched', n(r.fetched)],
    ['links followed', n(r.linksSeen)],
    ['duplicate links skipped', n(r.duplicatesSkipped)],
    ['pages wrongly skipped', `${n(r.wronglySkipped)} (false positives; predicted ${r.predictedWronglySkipped.toFixed(1)})`],
    ['filter memory', `${mib(r.filterBytes)} (m = ${n(r.bits)} bits, k = ${r.hashes})`],
    ['Set memory (measured)', `${mib(r.setBytes)} (${(r.setBytes / r.filterBytes).toFixed(0)}x the filter)`],
    ['elapsed', `${r.seconds.toFixed(2)} s, ${n(r.linksSeen / r.seconds)} URLs/s`],
  ];
  return (
    `bloom demo: breadth-first crawl of a synthetic web of ${n(r.pages)} pages (seed ${seed}), ` +
    `seen-set BloomFilter.forCapacity(${n(r.pages)}, ${fpp})\n` +
    rows.map(([k, v]) => `  ${k.padEnd(26)}${v}\n`).join('')
  );
}

/** Runs `bloom demo`. */
export async function run(argv: string[]): Promise<number> {
  return guard(async () => {
    const { values } = parse(argv, { pages: { type: 'string' }, fpp: { type: 'string' }, seed: { type: 'string' } }, false);
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    const pages = intOption('pages', values.pages, 1_000_000, 1, 100_000_000);
    const fpp = rateOption('fpp', values.fpp, 0.01);
    const seed = intOption('seed', values.seed, 1, 0, 2 ** 32 - 1);
    const report = crawl(new SyntheticWeb(pages, seed), fpp);
    process.stdout.write(formatReport(report, fpp, seed));
    return 0;
  });
}
