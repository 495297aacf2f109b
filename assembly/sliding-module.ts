// The exported ABI of the sliding-window filter's module: its records of
// KIND_SLIDING and their words (assembly/sliding.ts), in the memory of the
// core instance that holds them. A module of its own, so that only a
// bundle that uses the sliding filter carries it. Like every family module
// (assembly/lines-module.ts says how), it imports the core instance's
// memory and the core's createRecord (assembly/core-calls.ts), has no
// statics (assembly/layout.ts's STATICS_END), and names its records and
// reads them through the same sources as the core (assembly/record.ts,
// scheme.ts). A long item's stream is begun by the core's streamBegin and
// streamUpdate and finished here, from the XXH64 state in memory
// (assembly/layout.ts's STREAM_PTR). src/wasm/sliding.ts instantiates it,
// once per core instance, at a sliding filter's first record there.

export { slidingBatch, slidingChecksumWords, slidingClearPlane, slidingCreate, slidingItem, slidingStream } from "./sliding";
