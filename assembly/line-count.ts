// Counting the newlines of a file before `bloom dedupe` sizes a new chain
// for it: the count is exact where an estimate from sampled line lengths
// would need headroom, and an exactly sized first member needs no room for
// a second (src/cli/chain-shape.ts). The pass reads the whole input once
// more, so it runs at memory speed: sixteen bytes per step with SIMD.
// The pure-TypeScript twin is src/reference/line-count.ts.

const NEWLINE: u8 = 0x0a;

/** Steps of the SIMD loop before its byte counters are summed: one short of the 255 that would wrap them. */
const STEPS_PER_SUM: usize = 255;

/** How many bytes of [ptr, ptr + len) are \n. */
export function linesCount(ptr: usize, len: usize): f64 {
  const end = ptr + len;
  let count: u64 = 0;
  if (ASC_FEATURE_SIMD) {
    // Each lane compare gives 0xff (-1) for a \n, so subtracting it counts
    // per lane; the sixteen byte counters are summed every STEPS_PER_SUM
    // steps, before one can pass 255.
    while (ptr + 16 <= end) {
      let lanes = i8x16.splat(0);
      const stop = min<usize>(end, ptr + (STEPS_PER_SUM << 4));
      while (ptr + 16 <= stop) {
        lanes = i8x16.sub(lanes, i8x16.eq(v128.load(ptr), i8x16.splat(NEWLINE)));
        ptr += 16;
      }
      const sums = i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u(lanes));
      count += <u64>(i32x4.extract_lane(sums, 0) + i32x4.extract_lane(sums, 1) + i32x4.extract_lane(sums, 2) + i32x4.extract_lane(sums, 3));
    }
  }
  // Eight bytes at a time: a byte of v = word xor "\n"*8 is zero exactly
  // where the word has a \n. Adding 0x7f to each byte's low seven bits
  // carries into bit 7 unless they are all 0, and or-ing v back in keeps
  // bit 7 set when it was: bit 7 stays clear only for zero bytes, and no
  // carry crosses bytes, so the count is exact (unlike the cheaper test in
  // assembly/lines.ts's findNewline, whose flags above the first are not).
  while (ptr + 8 <= end) {
    const v = load<u64>(ptr) ^ 0x0a0a0a0a0a0a0a0a;
    const high = ((v & 0x7f7f7f7f7f7f7f7f) + 0x7f7f7f7f7f7f7f7f) | v;
    count += popcnt<u64>(~high & 0x8080808080808080);
    ptr += 8;
  }
  while (ptr < end) {
    if (load<u8>(ptr) == NEWLINE) count++;
    ptr++;
  }
  return <f64>count;
}
