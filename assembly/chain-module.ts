// The exported ABI of the chain's module, the walks over many filters in
// one call: a ScalableBloomFilter's members (assembly/chain.ts), listed at
// the core's chain records region, and probeAll's filters
// (assembly/digest.ts's probeRecords), listed at the batch offsets region;
// their records are in the memory of the core instance that holds them. A
// module of its own, so that only a bundle that uses chains or probeAll
// carries the walks. Like every family module (assembly/lines-module.ts
// says how), it imports the core instance's memory and has no statics
// (assembly/layout.ts's STATICS_END). src/wasm/chain-walk.ts instantiates
// it, once per core instance, at a chain's first walk there.

export { chainBatch, chainHas } from "./chain";
export { probeRecords } from "./digest";
