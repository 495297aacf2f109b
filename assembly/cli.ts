// The exported ABI of the command line's build: every export of the filter
// build (assembly/index.ts), plus line-by-line dedupe (assembly/lines.ts,
// lines-filter.ts and lines-split.ts) and the newline count that sizes a
// chain (assembly/line-count.ts).
// Only `bloom` uses it (src/wasm/lines-build.ts hands it to the boundary);
// the library's module leaves these out, since no library call reaches them.

export * from "./index";
export { linesCarry, linesInput, linesOutput, linesPiece, linesPrinted, linesRead, linesStreamEnd } from "./lines";
export { linesConfigure, linesFinish, linesProcess } from "./lines-filter";
export { linesConfigureSplit, linesEmit, linesPacked, linesOffsets, linesFlags, linesDigests } from "./lines-split";
export { linesCount } from "./line-count";
