// Linear-memory layout of one instance. Many filters share an instance:
// the work area that an item passes through is the instance's, and each
// filter's record and bits are a region of the heap (assembly/heap.ts,
// assembly/record.ts).
//
//   [AssemblyScript statics, below STATICS_END][probe positions u64[64]][positions out f64[64]]
//   [xxh64 stream state 64 B][its stripe buffer 32 B][touch sink 32 B][poly or bytesum state 32 B][batch offsets u32[4097]][batch flags u8[4096]]
//   [batch probes u64[8 * 64]][chain records u32[2 * 256]][kick path u64[512]][scratch 64 KiB][heap: record, bits | record, bits | ...]
//
// The heap comes last, so that growing memory is all it takes to make room
// for more filters.
//
// The shared build (assembly/shared.ts, compiled with threads) runs one
// instance per thread over one imported shared memory, so the regions an
// item passes through cannot be fixed addresses there:
//
//   [statics][shared header 18 KiB][bits ...][work area][work area]...
//
// The work area, from the probe positions to the end of scratch, is one
// instance's own; JS picks a free one (src/wasm/shared-memory.ts) and passes
// its address as the imported global env.workArea, which the start function
// reads before anything else runs. The header and the bits are common.

// @ts-ignore: decorator
@external("env", "workArea") declare const workArea: usize;

/**
 * The end of the statics of every module that shares a memory: the core
 * module (assembly/index.ts) keeps its statics below it, and the family
 * modules that import the core's memory (assembly/bitmap-module.ts,
 * cuckoo-module.ts, fuse-module.ts, lines-module.ts, sliding-module.ts)
 * have none, so that instantiating one writes nothing into the core's
 * memory.
 */
export const STATICS_END: usize = 16384;

/**
 * Start of this instance's work area: STATICS_END, an address every module
 * of one memory agrees on, or where JS put it in the shared build.
 */
const WORK_PTR: usize = ASC_FEATURE_THREADS ? workArea : STATICS_END;

// A module whose statics outgrew STATICS_END would overlap its own work
// area: it refuses to start.
if (!ASC_FEATURE_THREADS && __heap_base > STATICS_END) unreachable();

/** The largest k any scheme accepts; sizes the two position regions. */
export const MAX_HASHES: i32 = 64;

/** Bytes in the scratch region that JS copies items into. */
export const SCRATCH_SIZE: u32 = 65536;

/** u64[MAX_HASHES]: the positions of the current item, in probe order. */
export const PROBES_PTR: usize = WORK_PTR;

/** f64[MAX_HASHES]: the same positions as doubles, for JS to read without BigInt. */
export const POSITIONS_OUT_PTR: usize = PROBES_PTR + (<usize>MAX_HASHES << 3);

/**
 * 64 bytes: the state of a streamed XXH64 (assembly/hash.ts's XxhStream),
 * in memory rather than in the instance's globals, so that a stream that
 * one module of the memory begins another can feed and finish.
 */
export const STREAM_PTR: usize = POSITIONS_OUT_PTR + (<usize>MAX_HASHES << 3);

/** 32 bytes: the partial stripe of a streamed XXH64 input. */
export const STRIPE_PTR: usize = STREAM_PTR + 64;

/** The most items in one batch chunk (one call into wasm). */
export const BATCH_MAX: u32 = 4096;

/** Sizes the batch probes region: this many records of MAX_HASHES positions (or 64 of fewer, assembly/scheme.ts's touchGroup). */
export const BATCH_GROUP: u32 = 8;

/** 4 bytes: where a touch pass leaves the sum of what it read (assembly/scheme.ts's touchProbed), so that its loads stay. */
export const TOUCH_SINK_PTR: usize = STRIPE_PTR + 32;

/**
 * 32 bytes: the state of a poly or bytesum hash (assembly/hash.ts's
 * SumState) and whether a streamed item is code units, in memory as the
 * XXH64 stream's is (STREAM_PTR), so that a stream one module begins
 * another can finish.
 */
export const SUMS_PTR: usize = TOUCH_SINK_PTR + 32;

/** u32[BATCH_MAX + 1]: byte offsets into scratch; batch item i is [offsets[i], offsets[i+1]). */
export const BATCH_OFFSETS_PTR: usize = SUMS_PTR + 32;

/** u8[BATCH_MAX]: one 0/1 result per batch item. */
export const BATCH_FLAGS_PTR: usize = BATCH_OFFSETS_PTR + ((<usize>BATCH_MAX + 1) << 2);

/** u64[BATCH_GROUP * MAX_HASHES]: the positions of one group of batch items. */
export const BATCH_PROBES_PTR: usize = (BATCH_FLAGS_PTR + <usize>BATCH_MAX + 7) & ~7;

/** Bytes of the batch probes region. */
export const BATCH_PROBES_BYTES: usize = (<usize>BATCH_GROUP * <usize>MAX_HASHES) << 3;

/** The most records one walk of a chain takes (src/scalable/plan.ts's MAX_FILTER_COUNT). */
export const CHAIN_MAX: u32 = 256;

/** u32[2 * CHAIN_MAX]: a chain's members as (record, generation) pairs, oldest first (assembly/chain.ts). */
export const CHAIN_RECORDS_PTR: usize = BATCH_PROBES_PTR + BATCH_PROBES_BYTES;

/**
 * u64[KICK_PATH_SLOTS]: the slots a cuckoo add's kicks went through
 * (assembly/cuckoo.ts), to undo them when it fails. In the work area, not
 * the cuckoo module's statics: a family module has none (STATICS_END).
 */
export const KICK_PATH_PTR: usize = CHAIN_RECORDS_PTR + (<usize>CHAIN_MAX << 3);

/** Slots of the kick path: at least assembly/cuckoo.ts's MAX_KICKS. */
export const KICK_PATH_SLOTS: i32 = 512;

/**
 * Shared build only: the record of its one filter (assembly/record.ts's
 * SchemeRecord; assembly/filter.ts's configure writes it), in this
 * instance's own work area, so that the threads' instances never write
 * each other's. The other builds keep every record in the heap.
 */
export const SHARED_RECORD_PTR: usize = (KICK_PATH_PTR + (<usize>KICK_PATH_SLOTS << 3) + 63) & ~63;

/** The scratch region: items, chunks of long items, or a batch chunk are copied here. */
export const SCRATCH_PTR: usize = SHARED_RECORD_PTR + (ASC_FEATURE_THREADS ? 64 : 0);

/** Bytes of one instance's work area, the probe positions to the end of scratch. */
export const WORK_AREA_SIZE: usize = SCRATCH_PTR + SCRATCH_SIZE - WORK_PTR;

/**
 * Shared build only: the header of the shared memory, before the bits. It
 * holds the bitsSet and addedCount counters (u64 at +0 and +8, changed with
 * atomic adds), from +64 the table of free work areas that
 * src/wasm/shared-memory.ts keeps (a u32 for each of 256), and from
 * STRIPES_OFFSET the stripe lock words of assembly/stripe.ts.
 */
export const SHARED_HEADER_PTR: usize = (__heap_base + 63) & ~63;

/** Offset of the stripe lock words in the shared header. */
export const STRIPES_OFFSET: usize = 2048;

/** Stripe lock words: an item's add holds the one its first probe picks (assembly/stripe.ts). */
export const STRIPES: u32 = 4096;

/** Bytes of the shared header: counters, free work-area table, stripe locks. */
export const SHARED_HEADER_SIZE: usize = STRIPES_OFFSET + (<usize>STRIPES << 2);

/**
 * Where the heap starts (assembly/heap.ts): after the work area, 16 bytes
 * (one block header) before a 64-byte boundary.
 */
export const HEAP_START: usize = ((SCRATCH_PTR + SCRATCH_SIZE + 63) & ~63) + 48;

/** Shared build only: the packed bits of its one filter, after the header, common to every thread. */
export const SHARED_BITS_PTR: usize = SHARED_HEADER_PTR + SHARED_HEADER_SIZE;

/**
 * Shared build: grows memory so that `bytes` bytes fit at SHARED_BITS_PTR. Returns
 * false when the engine refuses the growth (address space or the 4 GiB
 * wasm32 limit).
 */
export function reserveBits(bytes: u64): bool {
  const end: u64 = <u64>SHARED_BITS_PTR + bytes;
  if (end > 0x1_0000_0000) return false;
  const needPages = <i32>((end + 0xffff) >> 16);
  const havePages = memory.size();
  if (needPages <= havePages) return true;
  return memory.grow(needPages - havePages) >= 0;
}

/** Slack after the output area of the lines region (assembly/lines.ts). */
export const LINES_SLACK: u32 = 64;
