// `bloom shell`: the SSTable command protocol on stdin/stdout.
//   BLOOM-NEW [m k [scheme]]  resets to an empty filter (default m=100, k=3, bytesum)
//   BLOOM-ADD <key>           adds key; prints nothing
//   BLOOM-CHECK <key>         prints MAYBE or NO
//   BLOOM-BITS                prints the m bits as one line of 0s and 1s
//   BLOOM-COUNT               prints bitsSet
// A bad command prints one line `ERR <reason>` and the shell carries on.
// The key is the rest of the line after one space, so keys may hold spaces.
// BLOOM-BITS is written in chunks straight from the filter's bits, waiting
// for stdout to drain, so m = 10^9 bits costs no 10^9-character string.

import { createInterface } from 'node:readline';
import { BloomFilter, engineOf } from '../filter/filter.js';
import { MAX_BITS, MAX_HASHES, SCHEMES, type Scheme } from '../filter/options.js';
import { guard, parse } from './common.js';

/** The help text of `bloom shell`. */
export const HELP = `Usage: bloom shell

Reads commands from stdin, one per line, and answers on stdout, in the SSTable
command protocol:
  BLOOM-NEW [m k [scheme]]  reset to an empty filter; default m=100 k=3 bytesum
  BLOOM-ADD <key>           add key (prints nothing)
  BLOOM-CHECK <key>         print MAYBE or NO
  BLOOM-BITS                print the m bits as one line of 0s and 1s
                            (streamed in chunks: any m works, in constant memory)
  BLOOM-COUNT               print how many bits are 1
A bad command prints 'ERR <reason>' and the shell carries on. A filter with
the defaults exists before any BLOOM-NEW. Prompts appear only on a terminal.
`;

const DEFAULT_BITS = 100;
const DEFAULT_HASHES = 3;
const DEFAULT_SCHEME: Scheme = 'bytesum';
/** Bytes of bits rendered per BLOOM-BITS chunk: 512 KiB of text. */
const BITS_CHUNK = 1 << 16;

/** The 8 characters '0'/'1' of each byte value, bit 0 first, as ASCII: two u32 words per byte value. */
const BYTE_TEXT = new Uint32Array(256 * 2);
{
  const chars = new Uint8Array(BYTE_TEXT.buffer);
  for (let b = 0; b < 256; b++) for (let bit = 0; bit < 8; bit++) chars[b * 8 + bit] = (b >> bit) & 1 ? 0x31 : 0x30;
}

/** The reply to BLOOM-BITS: chunks of ASCII '0'/'1', bit 0 first, the last ending in \n. */
function* bitChunks(filter: BloomFilter): Generator<Uint8Array> {
  const m = filter.bits;
  for (let first = 0; first < m; first += BITS_CHUNK * 8) {
    const count = Math.min(BITS_CHUNK * 8, m - first);
    // A new buffer per chunk: an asynchronous stdout keeps the chunk it was given until it is written.
    const words = new Uint32Array(Math.ceil(count / 4) + 1);
    const text = new Uint8Array(words.buffer);
    // A fresh view per chunk, never held across a yield (memory may grow while the caller waits).
    const bytes = engineOf(filter).bitsView().subarray(first / 8, Math.ceil((first + count) / 8));
    for (let i = 0; i < bytes.length; i++) {
      words[2 * i] = BYTE_TEXT[2 * bytes[i]];
      words[2 * i + 1] = BYTE_TEXT[2 * bytes[i] + 1];
    }
    const last = first + count >= m;
    if (last) text[count] = 0x0a;
    yield text.subarray(0, last ? count + 1 : count);
  }
}

/** Executes one protocol line against the session; returns the reply line, or null for none. */
export class ShellSession {
  /** The current filter. */
  filter = new BloomFilter(DEFAULT_BITS, DEFAULT_HASHES, { scheme: DEFAULT_SCHEME });

  /** The reply to `line` (without its newline), null when the command prints nothing, or BLOOM-BITS's chunks (with the newline). */
  execute(line: string): string | null | Iterable<Uint8Array> {
    const space = line.indexOf(' ');
    const command = (space < 0 ? line : line.slice(0, space)).toUpperCase();
    const arg = space < 0 ? '' : line.slice(space + 1);
    switch (command) {
      case 'BLOOM-NEW':
        return this.reset(arg);
      case 'BLOOM-ADD':
        if (arg === '') return 'ERR BLOOM-ADD needs a key';
        this.filter.add(arg);
        return null;
      case 'BLOOM-CHECK':
        if (arg === '') return 'ERR BLOOM-CHECK needs a key';
        return this.filter.has(arg) ? 'MAYBE' : 'NO';
      case 'BLOOM-BITS':
        if (arg !== '') return 'ERR BLOOM-BITS takes no argument';
        return bitChunks(this.filter);
      case 'BLOOM-COUNT':
        if (arg !== '') return 'ERR BLOOM-COUNT takes no argument';
        return String(this.filter.bitsSet());
      default:
        return `ERR unknown command ${JSON.stringify(command)}`;
    }
  }

  private reset(arg: string): string | null {
    const words = arg.split(' ').filter((w) => w !== '');
    if (words.length === 1 || words.length > 3) return 'ERR BLOOM-NEW takes no arguments, or m k [scheme]';
    const bits = words.length ? wholeNumber(words[0]) : DEFAULT_BITS;
    if (bits === null) return `ERR bits must be an integer in [1, ${MAX_BITS}]; got ${JSON.stringify(words[0])}`;
    const hashes = words.length ? wholeNumber(words[1]) : DEFAULT_HASHES;
    if (hashes === null) return `ERR hashes must be an integer in [1, ${MAX_HASHES}]; got ${JSON.stringify(words[1])}`;
    const scheme = (words[2] ?? DEFAULT_SCHEME) as Scheme;
    if (!SCHEMES.includes(scheme)) return `ERR scheme must be one of ${SCHEMES.join(', ')}; got ${JSON.stringify(scheme)}`;
    try {
      this.filter = new BloomFilter(bits, hashes, { scheme });
    } catch (error) {
      return `ERR ${(error as Error).message}`;
    }
    return null;
  }
}

/**
 * A BLOOM-NEW argument as a number: decimal digits only (no 0x, 1e3, +3 or
 * 3.0, which Number() would take) and a safe integer, so that an error can
 * quote the user's token rather than a rounded or reinterpreted value.
 */
function wholeNumber(token: string): number | null {
  const n = Number(token);
  return /^[0-9]+$/.test(token) && Number.isSafeInteger(n) ? n : null;
}

/** Writes to stdout, waiting for 'drain' when the stream's buffer is full (backpressure). */
function write(data: string | Uint8Array): Promise<void> | void {
  if (process.stdout.write(data)) return;
  return new Promise((resolve) => process.stdout.once('drain', () => resolve()));
}

/** Runs the shell until stdin ends. */
export async function run(argv: string[]): Promise<number> {
  return guard(async () => {
    const { values } = parse(argv, {}, false);
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    const tty = process.stdin.isTTY === true;
    const session = new ShellSession();
    const lines = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: tty });
    if (tty) {
      process.stdout.write('bloom shell: the SSTable command protocol (BLOOM-NEW, BLOOM-ADD, BLOOM-CHECK, BLOOM-BITS, BLOOM-COUNT); Ctrl-D quits\n');
      lines.setPrompt('bloom> ');
      lines.prompt();
    }
    for await (const raw of lines) {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (line.trim() !== '') {
        const reply = session.execute(line);
        if (typeof reply === 'string') await write(reply + '\n');
        else if (reply !== null) for (const chunk of reply) await write(chunk);
      }
      if (tty) lines.prompt();
    }
    return 0;
  });
}
