// Types for run-stream.js, which stays plain JavaScript so the pages and the worker can load it untranspiled.

/** How many items a stream passed on, and a fingerprint of them in order. */
interface Passed {
  passed: number;
  items: string;
}

/** What runStream answers: BloomFilter.from, dedupeStream over each kind of filter, its backpressure and its errors. */
export interface StreamAnswers {
  from: { bits: number; hashes: number; file: string; sameAsForCapacity: boolean; setBits: number; held: boolean; refused: string[] };
  dedupe: Record<'bloom' | 'sbbf' | 'scalable' | 'counting' | 'sliding' | 'cuckoo' | 'tight' | 'bytes', Passed>;
  backpressure: { stalled: { accepted: number; added: number; acceptedAt3: number }; then: Passed & { accepted: number } };
  errors: { chunk: string; filter: string[]; highWaterMark: string };
}

/** dedupeStream and BloomFilter.from, run against bloomwasm or bloomwasm/reference. */
export function runStream(lib: unknown): Promise<StreamAnswers>;
