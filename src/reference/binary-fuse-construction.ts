// The reference twin of assembly/binary-fuse-construction.ts: the binary
// fuse filter's construction, written plainly over BigInt, in the order of
// binary_fuse8_populate / binary_fuse16_populate of FastFilter/xor_singleheader
// at commit c482686 (include/binaryfusefilter.h). Same function names as the
// wasm file; the parity tests hold the two together on every vector.

import type { FuseShape } from '../fuse/shape.js';
import { fuseFingerprint, fuseMurmur64, fuseSlot, getSlot, MASK64 } from './binary-fuse-hash.js';

/** The reference's XOR_MAX_ITERATIONS: seeds tried before construction gives up. */
export const MAX_ITERATIONS = 100;
/** Where the rng of seeds starts (binary_fuse*_populate's rng_counter). */
const RNG_START = 0x726b2b9d438b9d4dn;

/** fusePopulate's answers, as the wasm export's. */
export const POPULATE_OK = 0;
export const POPULATE_GAVE_UP = 2;

/** binary_fuse_rng_splitmix64: the next value of the seed sequence, and the new state. */
function fuseNextSeed(state: bigint): { seed: bigint; state: bigint } {
  const next = (state + 0x9e3779b97f4a7c15n) & MASK64;
  let z = next;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return { seed: z ^ (z >> 31n), state: next };
}

/**
 * binary_fuse_sort_and_remove_dup, with a correct comparison (the
 * reference's truncates a 64-bit difference to int): sorts the first n
 * keys ascending and moves the distinct ones to the front; returns their count.
 */
export function fuseSortAndRemoveDup(keys: BigUint64Array, n: number): number {
  keys.subarray(0, n).sort();
  if (n === 0) return 0;
  let j = 1;
  for (let i = 1; i < n; i++) {
    if (keys[i] !== keys[i - 1]) keys[j++] = keys[i];
  }
  return j;
}

/**
 * binary_fuse8_populate (width 1) or binary_fuse16_populate (width 2): the
 * fingerprints of `keys` (sorted and deduplicated in place when repeats
 * stop the peeling) into `out`, zeroed, of shape.arrayLength slots.
 * Returns the status (POPULATE_OK or POPULATE_GAVE_UP) and the seed.
 */
export function fusePopulate(keys: BigUint64Array, out: Uint8Array, width: 1 | 2, shape: FuseShape): { status: number; seed: bigint } {
  let size = keys.length;
  const { segmentLength, segmentCount, segmentCountLength, arrayLength: capacity } = shape;
  let rng = fuseNextSeed(RNG_START);
  let seed = rng.seed;
  const reverseOrder = new BigUint64Array(size + 1);
  const alone = new Uint32Array(capacity);
  const t2count = new Uint8Array(capacity);
  const reverseH = new Uint8Array(size);
  const t2hash = new BigUint64Array(capacity);
  let blockBits = 1;
  while (2 ** blockBits < segmentCount) blockBits++;
  const block = 2 ** blockBits;
  const startPos = new Uint32Array(block);
  reverseOrder[size] = 1n;
  for (let loop = 0; ; ++loop) {
    if (loop + 1 > MAX_ITERATIONS) return { status: POPULATE_GAVE_UP, seed };
    // Bucket starts: under 8 bits the reference truncates i * size to 32 bits before the shift, under 16 after.
    for (let i = 0; i < block; i++) {
      const product = BigInt(i) * BigInt(size);
      startPos[i] = width === 1 ? Number(product & 0xffffffffn) >>> blockBits : Number((product >> BigInt(blockBits)) & 0xffffffffn);
    }
    for (let i = 0; i < size; i++) {
      const hash = fuseMurmur64((keys[i] + seed) & MASK64);
      let segmentIndex = Number(hash >> BigInt(64 - blockBits));
      while (reverseOrder[startPos[segmentIndex]] !== 0n) segmentIndex = (segmentIndex + 1) & (block - 1);
      reverseOrder[startPos[segmentIndex]] = hash;
      startPos[segmentIndex]++;
    }
    let error = false;
    let duplicates = 0;
    for (let i = 0; i < size; i++) {
      const hash = reverseOrder[i];
      const h0 = fuseSlot(0, hash, segmentLength, segmentCountLength);
      const h1 = fuseSlot(1, hash, segmentLength, segmentCountLength);
      const h2 = fuseSlot(2, hash, segmentLength, segmentCountLength);
      t2count[h0] += 4;
      t2hash[h0] ^= hash;
      t2count[h1] = (t2count[h1] + 4) ^ 1;
      t2hash[h1] ^= hash;
      t2count[h2] = (t2count[h2] + 4) ^ 2;
      t2hash[h2] ^= hash;
      if ((t2hash[h0] & t2hash[h1] & t2hash[h2]) === 0n) {
        if ((t2hash[h0] === 0n && t2count[h0] === 8) || (t2hash[h1] === 0n && t2count[h1] === 8) || (t2hash[h2] === 0n && t2count[h2] === 8)) {
          // The same hash twice: a repeated key, taken back out.
          duplicates++;
          t2count[h0] -= 4;
          t2hash[h0] ^= hash;
          t2count[h1] = (t2count[h1] - 4) ^ 1;
          t2hash[h1] ^= hash;
          t2count[h2] = (t2count[h2] - 4) ^ 2;
          t2hash[h2] ^= hash;
        }
      }
      if (t2count[h0] < 4 || t2count[h1] < 4 || t2count[h2] < 4) error = true;
    }
    if (!error) {
      let qsize = 0;
      for (let i = 0; i < capacity; i++) {
        alone[qsize] = i;
        if (t2count[i] >> 2 === 1) qsize++;
      }
      let stacksize = 0;
      while (qsize > 0) {
        qsize--;
        const index = alone[qsize];
        if (t2count[index] >> 2 !== 1) continue;
        const hash = t2hash[index];
        const h012 = [0, 1, 2, 0, 1].map((j) => fuseSlot(j, hash, segmentLength, segmentCountLength));
        const found = t2count[index] & 3;
        reverseH[stacksize] = found;
        reverseOrder[stacksize] = hash;
        stacksize++;
        for (const step of [1, 2]) {
          const other = h012[found + step];
          alone[qsize] = other;
          if (t2count[other] >> 2 === 2) qsize++;
          t2count[other] = (t2count[other] - 4) ^ (found + step > 2 ? found + step - 3 : found + step);
          t2hash[other] ^= hash;
        }
      }
      if (stacksize + duplicates === size) {
        size = stacksize;
        break;
      }
      if (duplicates > 0) {
        size = fuseSortAndRemoveDup(keys, size);
        reverseOrder[size] = 1n;
      }
    }
    reverseOrder.fill(0n, 0, size);
    t2count.fill(0);
    t2hash.fill(0n);
    rng = fuseNextSeed(rng.state);
    seed = rng.seed;
  }
  // Assignment in the reverse of the peeling order.
  for (let i = size - 1; i >= 0; i--) {
    const hash = reverseOrder[i];
    const found = reverseH[i];
    const h012 = [0, 1, 2, 0, 1].map((j) => fuseSlot(j, hash, segmentLength, segmentCountLength));
    const value = fuseFingerprint(hash) ^ getSlot(out, width, h012[found + 1]) ^ getSlot(out, width, h012[found + 2]);
    if (width === 1) {
      out[h012[found]] = value & 0xff;
    } else {
      out[2 * h012[found]] = value & 0xff;
      out[2 * h012[found] + 1] = (value >> 8) & 0xff;
    }
  }
  return { status: POPULATE_OK, seed };
}
