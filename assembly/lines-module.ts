// The exported ABI of the line dedupe module: `bloom dedupe`'s line-by-line
// dedupe (assembly/lines.ts, lines-filter.ts and lines-split.ts) and the
// newline count that sizes a chain (assembly/line-count.ts), a module of
// its own so that nothing else carries it. It imports the memory of the
// core instance that holds the filter (assembly/index.ts) and the core's
// regionAlloc and regionFree (assembly/core-calls.ts), and has no statics
// (assembly/layout.ts's STATICS_END): instantiated over a memory, it writes
// nothing there. It reads the filter's record and bits as the core does,
// through the same sources (assembly/record.ts, scheme.ts).
// src/wasm/lines-module.ts instantiates it, once per core instance, when
// `bloom dedupe` first asks.

export { linesCarry, linesInput, linesOutput, linesPiece, linesPrinted, linesRead, linesStreamEnd } from "./lines";
export { linesConfigure, linesFinish, linesProcess } from "./lines-filter";
export { linesConfigureSplit, linesEmit, linesPacked, linesOffsets, linesFlags, linesDigests } from "./lines-split";
export { linesCount } from "./line-count";
