// The exported ABI of the Bitmap's module: its records of KIND_BITMAP and
// the loops over many values (assembly/bitmap.ts), in the memory of the
// core instance that holds them. A module of its own, so that only a
// bundle that uses the Bitmap carries it. Like every family module
// (assembly/lines-module.ts says how), it imports the core instance's
// memory and the core's createRecord (assembly/core-calls.ts), has no
// statics (assembly/layout.ts's STATICS_END), and names its records and
// reads them through the same sources as the core (assembly/record.ts).
// src/wasm/bitmap.ts instantiates it, once per core instance, at a
// Bitmap's first record there.

export { bitmapClearAll, bitmapCreate, bitmapFirstInvalid, bitmapHasMany, bitmapNextValues, bitmapSetMany } from "./bitmap";
