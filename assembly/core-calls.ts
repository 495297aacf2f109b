// What a family module calls in the core module whose memory it imports
// (assembly/lines-module.ts): the heap lives in the core's instance
// (assembly/heap.ts), so a region is taken and given back there. JS passes
// the core instance's exports as the "core" imports.

/** A zeroed heap region of `bytes` bytes, or 0 (assembly/heap.ts's regionAlloc). */
// @ts-ignore: decorator
@external("core", "regionAlloc") export declare function regionAlloc(bytes: f64): usize;

/** Gives a region from regionAlloc back (assembly/heap.ts's regionFree). */
// @ts-ignore: decorator
@external("core", "regionFree") export declare function regionFree(ptr: usize): void;
