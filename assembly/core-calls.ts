// What a family module calls in the core module whose memory it imports
// (assembly/bitmap-module.ts, cuckoo-module.ts, fuse-module.ts,
// lines-module.ts, sliding-module.ts): the heap and the records'
// generations live in the core's instance (assembly/heap.ts,
// record-life.ts), so a region or a record is taken and given back there.
// JS passes the core instance's exports as the "core" imports.

/** A zeroed heap region of `bytes` bytes, or 0 (assembly/heap.ts's regionAlloc). */
// @ts-ignore: decorator
@external("core", "regionAlloc") export declare function regionAlloc(bytes: f64): usize;

/** Gives a region from regionAlloc back (assembly/heap.ts's regionFree). */
// @ts-ignore: decorator
@external("core", "regionFree") export declare function regionFree(ptr: usize): void;

/** A new record of `kind` with `payload` bytes after it, or 0 (assembly/record-life.ts's createRecord). */
// @ts-ignore: decorator
@external("core", "createRecord") export declare function createRecord(kind: u32, payload: u64): usize;
