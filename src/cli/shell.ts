// `bloom shell`: the SSTable command protocol on stdin/stdout.
//   BLOOM-NEW [m k [scheme]]  resets to an empty filter (default m=100, k=3, bytesum)
//   BLOOM-ADD <key>           adds key; prints nothing
//   BLOOM-CHECK <key>         prints MAYBE or NO
//   BLOOM-BITS                prints the m bits as one line of 0s and 1s
//   BLOOM-COUNT               prints bitsSet
// A bad command prints one line `ERR <reason>` and the shell carries on.
// The key is the rest of the line after one space, so keys may hold spaces.

import { createInterface } from 'node:readline';
import { BloomFilter } from '../filter/filter.js';
import { SCHEMES, type Scheme } from '../filter/options.js';
import { guard, parse } from './common.js';

/** The help text of `bloom shell`. */
export const HELP = `Usage: bloom shell

Reads commands from stdin, one per line, and answers on stdout, in the SSTable
command protocol:
  BLOOM-NEW [m k [scheme]]  reset to an empty filter; default m=100 k=3 bytesum
  BLOOM-ADD <key>           add key (prints nothing)
  BLOOM-CHECK <key>         print MAYBE or NO
  BLOOM-BITS                print the m bits as one line of 0s and 1s
  BLOOM-COUNT               print how many bits are 1
A bad command prints 'ERR <reason>' and the shell carries on. A filter with
the defaults exists before any BLOOM-NEW. Prompts appear only on a terminal.
`;

const DEFAULT_BITS = 100;
const DEFAULT_HASHES = 3;
const DEFAULT_SCHEME: Scheme = 'bytesum';

/** Executes one protocol line against the session; returns the reply line, or null for none. */
export class ShellSession {
  /** The current filter. */
  filter = new BloomFilter(DEFAULT_BITS, DEFAULT_HASHES, { scheme: DEFAULT_SCHEME });

  /** The reply to `line` (without its newline), or null when the command prints nothing. */
  execute(line: string): string | null {
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
        return this.filter.toBitString();
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
    const bits = words.length ? Number(words[0]) : DEFAULT_BITS;
    const hashes = words.length ? Number(words[1]) : DEFAULT_HASHES;
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
        if (reply !== null) process.stdout.write(reply + '\n');
      }
      if (tty) lines.prompt();
    }
    return 0;
  });
}
