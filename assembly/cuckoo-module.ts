// The exported ABI of the cuckoo filter's module: its tables
// (assembly/cuckoo.ts, cuckoo-record.ts), records of KIND_CUCKOO in the
// memory of the core instance that holds them. A module of its own, so
// that only a bundle that uses the cuckoo filter carries it. Like every
// family module (assembly/lines-module.ts says how), it imports the core
// instance's memory and the core's createRecord (assembly/core-calls.ts),
// has no statics (assembly/layout.ts's STATICS_END), and names its
// records and reads them through the same sources as the core
// (assembly/record.ts). src/wasm/cuckoo.ts instantiates it, once per core
// instance, at a cuckoo filter's first table there.

export { cuckooBatch, cuckooChecksumSlots, cuckooClear, cuckooCreate, cuckooHeld, cuckooItem, cuckooRandomState, cuckooRestore, cuckooSetRandomState, cuckooStream } from "./cuckoo";
