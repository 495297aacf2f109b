// The exported ABI of the chain's module: a ScalableBloomFilter's members
// walked in one call (assembly/chain.ts), their records in the memory of
// the core instance that holds them, listed at the core's chain records
// region. A module of its own, so that only a bundle that uses chains
// carries the walk. Like every family module (assembly/lines-module.ts
// says how), it imports the core instance's memory and has no statics
// (assembly/layout.ts's STATICS_END). src/wasm/chain-walk.ts instantiates
// it, once per core instance, at a chain's first walk there.

export { chainBatch, chainHas } from "./chain";
