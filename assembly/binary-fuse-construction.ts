// The construction of a static binary fuse filter (assembly/binary-fuse.ts
// holds its record and queries): the one of FastFilter/xor_singleheader at
// commit c482686 (include/binaryfusefilter.h, binary_fuse8_populate and
// binary_fuse16_populate), step for step, so that the same keys in the same
// order give the same fingerprints: its seeds (splitmix64 from
// 0x726b2b9d438b9d4d), its bucketing of the hashes by their top bits, its
// counts and xors per slot, its peeling order and its retries. JS passes the
// shape (src/fuse/shape.ts) and the keys in, in heap regions from regionAlloc (assembly/heap.ts).
// The pure-TypeScript twin is src/reference/binary-fuse-construction.ts.

import { SCRATCH_PTR } from "./layout";
import { regionAlloc, regionFree } from "./core-calls";
import { fuseFingerprint, fuseMurmur64, fuseSlot } from "./binary-fuse-hash";

/** The reference's XOR_MAX_ITERATIONS: seeds tried before construction gives up. */
const MAX_ITERATIONS: i32 = 100;
/** Where the rng of seeds starts (binary_fuse*_populate's rng_counter). */
const RNG_START: u64 = 0x726b2b9d438b9d4d;

/** fusePopulate's answers. */
const POPULATE_OK = 0;
const POPULATE_NO_MEMORY = 1;
const POPULATE_GAVE_UP = 2;

/** binary_fuse_rng_splitmix64: the next seed; the state is the caller's (a global here). */
let rngState: u64 = 0;
// @ts-ignore: decorator
@inline function fuseNextSeed(): u64 {
  rngState += 0x9e3779b97f4a7c15;
  let z = rngState;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  return z ^ (z >> 31);
}

/** binary_fuse_mod3 for x in [0, 5). */
// @ts-ignore: decorator
@inline function mod3(x: u32): u32 {
  return x > 2 ? x - 3 : x;
}

/** Sorts the `n` u64 keys at `keys` ascending, in place (heapsort: no extra memory, n log n at worst). */
function sortKeys(keys: usize, n: usize): void {
  if (n < 2) return;
  // Sift-down heapsort, Williams (CACM 7(6), 1964) with Floyd's build.
  let start = n >> 1;
  let end = n;
  while (end > 1) {
    let root: usize;
    if (start > 0) {
      start--;
      root = start;
    } else {
      end--;
      const top = load<u64>(keys);
      store<u64>(keys, load<u64>(keys + (end << 3)));
      store<u64>(keys + (end << 3), top);
      root = 0;
    }
    const value = load<u64>(keys + (root << 3));
    for (;;) {
      let child: usize = (root << 1) + 1;
      if (child >= end) break;
      if (child + 1 < end && load<u64>(keys + ((child + 1) << 3)) > load<u64>(keys + (child << 3))) child++;
      const c = load<u64>(keys + (child << 3));
      if (c <= value) break;
      store<u64>(keys + (root << 3), c);
      root = child;
    }
    store<u64>(keys + (root << 3), value);
  }
}

/**
 * binary_fuse_sort_and_remove_dup, with a correct comparison: the
 * reference's comparator truncates a 64-bit difference to int, so its
 * order (and from there its bytes) depends on the C library's qsort.
 * Returns how many distinct keys are left at the front.
 */
export function fuseSortAndRemoveDup(keys: usize, n: u32): u32 {
  sortKeys(keys, <usize>n);
  if (n == 0) return 0;
  let j: u32 = 1;
  for (let i: u32 = 1; i < n; i++) {
    const k = load<u64>(keys + (<usize>i << 3));
    if (k != load<u64>(keys + (<usize>(i - 1) << 3))) {
      store<u64>(keys + (<usize>j << 3), k);
      j++;
    }
  }
  return j;
}

/**
 * The bucket a hash of bucket `b` goes to: the first one from `b` on
 * (cyclically) whose next place in reverseOrder is free, as the
 * reference's linear walk finds it. Under 8 bits the truncated bucket
 * starts wrap past bucket 2^32 / Size and land in buckets already filled,
 * so for large sets that walk passes hundreds of full buckets a key. A
 * bucket whose next place is taken stays full for the rest of the pass
 * (its start moves only when a hash goes to it, and a place once taken is
 * never freed), so `skip` links each bucket found full to the one after
 * it, and each walk follows and shortens those links (union-find with path
 * compression, Tarjan 1975): the same bucket, at about one look a hash.
 */
// @ts-ignore: decorator
@inline function nextFreeBucket(b: u32, startPos: usize, skip: usize, reverseOrder: usize, mask: u32): u32 {
  let root = b;
  for (;;) {
    root = b;
    for (let up = load<u32>(skip + (<usize>root << 2)); up != root; up = load<u32>(skip + (<usize>root << 2))) root = up;
    for (let at = b; at != root;) {
      const up = load<u32>(skip + (<usize>at << 2));
      store<u32>(skip + (<usize>at << 2), root);
      at = up;
    }
    if (load<u64>(reverseOrder + (<usize>load<u32>(startPos + (<usize>root << 2)) << 3)) == 0) break;
    store<u32>(skip + (<usize>root << 2), (root + 1) & mask);
  }
  return root;
}

/** Frees the construction's temporaries (any may be 0). */
function freeAll(a: usize, b: usize, c: usize, d: usize, e: usize, f: usize): void {
  if (a != 0) regionFree(a);
  if (b != 0) regionFree(b);
  if (c != 0) regionFree(c);
  if (d != 0) regionFree(d);
  if (e != 0) regionFree(e);
  if (f != 0) regionFree(f);
}

/**
 * binary_fuse8_populate (width 1) or binary_fuse16_populate (width 2): the
 * fingerprints of the `size` u64 keys at `keys` into the arrayLength zeroed
 * slots at `out`, for the shape given (src/fuse/shape.ts). The keys may be
 * sorted and deduplicated in place, as the reference does when it finds
 * repeats. The seed that worked is left in the first 8 bytes of scratch.
 * Returns 0, 1 when the temporaries cannot be had, or 2 after 100 seeds
 * (MAX_ITERATIONS) failed; temporaries are freed in every case.
 */
export function fusePopulate(
  keys: usize, size: u32, out: usize, width: u32, segmentLength: u32, segmentCount: u32, segmentCountLength: u32, arrayLength: u32,
): i32 {
  rngState = RNG_START;
  let seed = fuseNextSeed();
  const capacity = arrayLength;
  // The reference's temporaries, zeroed (regionAlloc zeroes): 8 (size + 1)
  // + 13 capacity + size bytes, and 4 bytes a block of startPos.
  const reverseOrder = regionAlloc(<f64><u32>min<u64>((<u64>size + 1) << 3, 0xffffffff));
  const alone = regionAlloc(<f64><u32>min<u64>(<u64>capacity << 2, 0xffffffff));
  const t2count = regionAlloc(<f64>max<u32>(capacity, 1));
  const reverseH = regionAlloc(<f64>max<u32>(size, 1));
  const t2hash = regionAlloc(<f64><u32>min<u64>(<u64>capacity << 3, 0xffffffff));
  let blockBits: u32 = 1;
  while ((<u32>1 << blockBits) < segmentCount) blockBits++;
  const block: u32 = <u32>1 << blockBits;
  // startPos, then skip (block u32s each): see nextFreeBucket.
  const startPos = regionAlloc(<f64>(block << 3));
  if (reverseOrder == 0 || alone == 0 || t2count == 0 || reverseH == 0 || t2hash == 0 || startPos == 0) {
    freeAll(reverseOrder, alone, t2count, reverseH, t2hash, startPos);
    return POPULATE_NO_MEMORY;
  }
  const skip = startPos + (<usize>block << 2);
  const mask = <u64>(segmentLength - 1);
  store<u64>(reverseOrder + (<usize>size << 3), 1);
  for (let loop = 0; ; ++loop) {
    if (loop + 1 > MAX_ITERATIONS) {
      freeAll(reverseOrder, alone, t2count, reverseH, t2hash, startPos);
      return POPULATE_GAVE_UP;
    }
    // The start of each bucket of the hashes' top blockBits bits. Under 8
    // bits the reference truncates i * size to 32 bits before the shift,
    // under 16 bits after it: both kept.
    for (let i: u32 = 0; i < block; i++) {
      const product = <u64>i * <u64>size;
      store<u32>(startPos + (<usize>i << 2), width == 1 ? (<u32>product) >> blockBits : <u32>(product >> blockBits));
      store<u32>(skip + (<usize>i << 2), i);
    }
    for (let i: u32 = 0; i < size; i++) {
      const hash = fuseMurmur64(load<u64>(keys + (<usize>i << 3)) + seed);
      let segmentIndex = <u32>(hash >> (64 - <u64>blockBits));
      // Most hashes find their own bucket free: the links are for the rest.
      if (load<u64>(reverseOrder + (<usize>load<u32>(startPos + (<usize>segmentIndex << 2)) << 3)) != 0) {
        segmentIndex = nextFreeBucket(segmentIndex, startPos, skip, reverseOrder, block - 1);
      }
      const at = startPos + (<usize>segmentIndex << 2);
      const p = load<u32>(at);
      store<u64>(reverseOrder + (<usize>p << 3), hash);
      store<u32>(at, p + 1);
    }
    let error = false;
    let duplicates: u32 = 0;
    for (let i: u32 = 0; i < size; i++) {
      const hash = load<u64>(reverseOrder + (<usize>i << 3));
      const h0 = fuseSlot(0, hash, segmentLength, segmentCountLength);
      const h1 = fuseSlot(1, hash, segmentLength, segmentCountLength);
      const h2 = fuseSlot(2, hash, segmentLength, segmentCountLength);
      const c0 = t2count + <usize>h0;
      const c1 = t2count + <usize>h1;
      const c2 = t2count + <usize>h2;
      const x0 = t2hash + (<usize>h0 << 3);
      const x1 = t2hash + (<usize>h1 << 3);
      const x2 = t2hash + (<usize>h2 << 3);
      // Stored one after the other, as the reference does: h0, h1, h2 may coincide.
      store<u8>(c0, load<u8>(c0) + 4);
      store<u64>(x0, load<u64>(x0) ^ hash);
      store<u8>(c1, (load<u8>(c1) + 4) ^ 1);
      store<u64>(x1, load<u64>(x1) ^ hash);
      store<u8>(c2, (load<u8>(c2) + 4) ^ 2);
      store<u64>(x2, load<u64>(x2) ^ hash);
      if ((load<u64>(x0) & load<u64>(x1) & load<u64>(x2)) == 0) {
        // A slot whose two keys cancelled out: the same hash twice, a repeated key.
        if ((load<u64>(x0) == 0 && load<u8>(c0) == 8) || (load<u64>(x1) == 0 && load<u8>(c1) == 8) ||
          (load<u64>(x2) == 0 && load<u8>(c2) == 8)) {
          duplicates++;
          store<u8>(c0, load<u8>(c0) - 4);
          store<u64>(x0, load<u64>(x0) ^ hash);
          store<u8>(c1, (load<u8>(c1) - 4) ^ 1);
          store<u64>(x1, load<u64>(x1) ^ hash);
          store<u8>(c2, (load<u8>(c2) - 4) ^ 2);
          store<u64>(x2, load<u64>(x2) ^ hash);
        }
      }
      if (load<u8>(c0) < 4 || load<u8>(c1) < 4 || load<u8>(c2) < 4) error = true;
    }
    if (!error) {
      // Peeling: a queue of the slots that hold one key.
      let qsize: u32 = 0;
      for (let i: u32 = 0; i < capacity; i++) {
        store<u32>(alone + (<usize>qsize << 2), i);
        qsize += (load<u8>(t2count + <usize>i) >> 2) == 1 ? 1 : 0;
      }
      let stacksize: u32 = 0;
      while (qsize > 0) {
        qsize--;
        const index = load<u32>(alone + (<usize>qsize << 2));
        if ((load<u8>(t2count + <usize>index) >> 2) != 1) continue;
        const hash = load<u64>(t2hash + (<usize>index << 3));
        const h0 = fuseSlot(0, hash, segmentLength, segmentCountLength);
        const h1 = fuseSlot(1, hash, segmentLength, segmentCountLength);
        const h2 = fuseSlot(2, hash, segmentLength, segmentCountLength);
        const found = <u32>load<u8>(t2count + <usize>index) & 3;
        store<u8>(reverseH + <usize>stacksize, <u8>found);
        store<u64>(reverseOrder + (<usize>stacksize << 3), hash);
        stacksize++;
        // h012[found + 1] and h012[found + 2] with h012 = h0, h1, h2, h0, h1.
        const other1 = found == 0 ? h1 : found == 1 ? h2 : h0;
        const other2 = found == 0 ? h2 : found == 1 ? h0 : h1;
        store<u32>(alone + (<usize>qsize << 2), other1);
        const o1 = t2count + <usize>other1;
        qsize += (load<u8>(o1) >> 2) == 2 ? 1 : 0;
        store<u8>(o1, (load<u8>(o1) - 4) ^ <u8>mod3(found + 1));
        store<u64>(t2hash + (<usize>other1 << 3), load<u64>(t2hash + (<usize>other1 << 3)) ^ hash);
        store<u32>(alone + (<usize>qsize << 2), other2);
        const o2 = t2count + <usize>other2;
        qsize += (load<u8>(o2) >> 2) == 2 ? 1 : 0;
        store<u8>(o2, (load<u8>(o2) - 4) ^ <u8>mod3(found + 2));
        store<u64>(t2hash + (<usize>other2 << 3), load<u64>(t2hash + (<usize>other2 << 3)) ^ hash);
      }
      if (stacksize + duplicates == size) {
        size = stacksize;
        break;
      }
      if (duplicates > 0) {
        size = fuseSortAndRemoveDup(keys, size);
        // The sentinel past the last bucket (the reference leaves an earlier hash there: non-zero too).
        store<u64>(reverseOrder + (<usize>size << 3), 1);
      }
    }
    memory.fill(reverseOrder, 0, <usize>size << 3);
    memory.fill(t2count, 0, <usize>capacity);
    memory.fill(t2hash, 0, <usize>capacity << 3);
    seed = fuseNextSeed();
  }
  // Assignment, in the reverse of the peeling order: each key's slot gets
  // what makes the xor of its three slots its fingerprint.
  for (let i = <i64>size - 1; i >= 0; i--) {
    const hash = load<u64>(reverseOrder + (<usize>i << 3));
    const found = <u32>load<u8>(reverseH + <usize>i);
    const h0 = fuseSlot(0, hash, segmentLength, segmentCountLength);
    const h1 = fuseSlot(1, hash, segmentLength, segmentCountLength);
    const h2 = fuseSlot(2, hash, segmentLength, segmentCountLength);
    const target = found == 0 ? h0 : found == 1 ? h1 : h2;
    const other1 = found == 0 ? h1 : found == 1 ? h2 : h0;
    const other2 = found == 0 ? h2 : found == 1 ? h0 : h1;
    const f = fuseFingerprint(hash);
    if (width == 1) {
      store<u8>(out + <usize>target, <u8>(f ^ <u32>load<u8>(out + <usize>other1) ^ <u32>load<u8>(out + <usize>other2)));
    } else {
      store<u16>(out + (<usize>target << 1),
        <u16>(f ^ <u32>load<u16>(out + (<usize>other1 << 1)) ^ <u32>load<u16>(out + (<usize>other2 << 1))));
    }
  }
  freeAll(reverseOrder, alone, t2count, reverseH, t2hash, startPos);
  store<u64>(SCRATCH_PTR, seed);
  return POPULATE_OK;
}

