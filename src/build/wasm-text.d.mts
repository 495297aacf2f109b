// Types for wasm-text.mjs, which stays plain JavaScript so that npm runs the build scripts without a build.

/** `wasm` as text, and which byte values take one character (64 hex digits); wasm-text.mjs says how. */
export function wasmText(wasm: Uint8Array): { text: string; frequent: string };
