// Types for run-cases.js, which stays plain JavaScript so the page can load it untranspiled.
import type { Scheme } from '../../src/index.js';

/** An item as it travels through JSON: a string, or a Uint8Array's bytes. */
export type CaseItem = string | { bytes: number[] };

/** One parity case: a filter's parameters, the items added and the items only probed. */
export interface ParityCase {
  bits: number;
  hashes: number;
  scheme: Scheme;
  seed: string;
  items: CaseItem[];
  probes: CaseItem[];
}

/** The members of a BloomFilter the driver calls (both implementations, in Node or in the page). */
interface DriverFilter {
  positions(item: string | Uint8Array): number[];
  add(item: string | Uint8Array): boolean;
  has(item: string | Uint8Array): boolean;
  bitsSet(): number;
  toBitString(): string;
  bitArray(): Uint8Array;
  clear(): void;
}

/** The members of bloomwasm (or bloomwasm/reference) the driver uses. */
export interface DriverLibrary {
  BloomFilter: new (bits: number, hashes: number, options?: { scheme?: Scheme; seed?: bigint }) => DriverFilter;
  SeenFilter: new (bits: number, hashes: number) => {
    add(url: string): void;
    bitsSet(): number;
    mightContain(url: string): boolean;
  };
}

/** What runCases records for one case. */
export interface CaseResult {
  positions: number[][];
  added: boolean[];
  has: boolean[];
  probes: boolean[];
  probePositions: number[][];
  bitsSet: number;
  bitString: string;
  bytes: number[];
}

/** An answer of the SSTable exercise: MAYBE (the filter says present) or NO. */
type Check = 'MAYBE' | 'NO';

/** What runSeeds records. */
export interface SeedResults {
  seenFilter: (null | number | boolean)[];
  seenFilterPositions: number[][];
  sstable: {
    emptyBits: string;
    emptyApple: boolean;
    apple: number[];
    banana: number[];
    checkApple: Check;
    checkBanana: Check;
    bits: string;
    afterReset: Check;
    qux: Check;
  };
  stages: Record<'bf4' | 'bf5', { hits: number; bitsSet: number }>;
}

/** Runs parity cases against `lib` and records every answer. */
export function runCases(lib: DriverLibrary, cases: ParityCase[]): CaseResult[];

/** The worked examples of the source documents, run against `lib`. */
export function runSeeds(lib: DriverLibrary): SeedResults;

/** The members of CuckooFilter and BinaryFuseFilter the driver calls. */
export interface StaticLibrary {
  CuckooFilter: unknown;
  BinaryFuseFilter: unknown;
}

/** What runStatic records: answers and byte fingerprints of the cuckoo and binary fuse filters. */
export interface StaticResults {
  cuckoo: Record<string, unknown>;
  fuse: Record<string, unknown>[];
}

/** Runs the cuckoo and binary fuse filters against `lib` and records every answer. */
export function runStatic(lib: StaticLibrary): StaticResults;
