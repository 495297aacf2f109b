// The reference twin of assembly/line-count.ts: the newlines of a byte
// range, counted one byte at a time.

const NEWLINE = 10;

/** How many bytes of `bytes` are \n. */
export function linesCount(bytes: Uint8Array): number {
  let count = 0;
  for (const byte of bytes) if (byte === NEWLINE) count++;
  return count;
}
