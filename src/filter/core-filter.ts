// The lean BloomFilter of `bloomwasm/core` (src/core.ts): the common user's
// part of src/filter/filter.ts's class (make, size, add, ask, batches,
// dispose), which is all of src/filter/filter-base.ts, under the xxh64 and
// sbbf schemes, in the lean wasm build (assembly/core.ts). Save/load,
// sharing, set algebra and the exercises' schemes are left out, so that a
// bundle of it does not carry them (docs/MEMORY.md, on which build an
// instance is made from; README, "The lean bundle"). A filter of it
// answers every question as the full class's does, bit for bit
// (test/lean-bundle.test.ts).

// The lean build, offered by the class that runs on it: a bundler keeps what
// a kept module imports for its effect (package.json's sideEffects lists it),
// where it may skip an entry that only re-exports.
import '../wasm/core-build.js';
import { CoreEngine } from '../wasm/core-engine.js';
import { BloomRangeError, BloomTypeError } from '../errors.js';
import { checkParams, checkShared, MAX_BITS, readFilterOptions, schemeOption, type FilterOptions, type Scheme } from './options.js';
import { capacityParams } from './sizing.js';
import { BloomFilterBase } from './filter-base.js';
import { DIGEST_SCHEMES } from './item-digest.js';

/** `scheme` when the lean build hashes it (those whose probes start from XXH64, the digest's); else BloomRangeError. */
function leanScheme(scheme: Scheme): Scheme {
  if (!DIGEST_SCHEMES.includes(scheme)) {
    throw new BloomRangeError('scheme', scheme, "xxh64 or sbbf in 'bloomwasm/core' (poly and bytesum are BloomFilter's from 'bloomwasm')");
  }
  return scheme;
}

/** A Bloom filter of `bits` bits and `hashes` positions per item, hashed in WebAssembly (the lean class of `bloomwasm/core`). */
export class BloomFilter extends BloomFilterBase {
  /**
   * Creates an empty filter; throws BloomRangeError or BloomTypeError on bad
   * arguments. The schemes are `xxh64` and `sbbf`: the exercises' `poly`
   * and `bytesum`, and `{ shared: true }`, are the full class's (import
   * from 'bloomwasm'), and the lean wasm build has no code for them.
   */
  constructor(bits: number, hashes: number, options?: FilterOptions) {
    const o = readFilterOptions(options);
    const params = checkParams(bits, hashes, o);
    leanScheme(params.scheme);
    if (checkShared(o)) throw new BloomTypeError('options.shared', true, "false here: a shared filter is made by BloomFilter from 'bloomwasm'");
    super(params, CoreEngine.make(params));
  }

  /** A filter sized for `capacity` items at `falsePositiveRate` (under sbbf, with the blocked filter's rate). */
  static forCapacity(capacity: number, falsePositiveRate: number, options?: FilterOptions): BloomFilter {
    // Refused before sizing: the lean path carries no sizing for the exercises' schemes (src/filter/double-rates.ts).
    const o = readFilterOptions(options);
    const { bits, hashes } = capacityParams(capacity, falsePositiveRate, MAX_BITS, leanScheme(schemeOption(o)));
    return new BloomFilter(bits, hashes, o as FilterOptions);
  }
}
