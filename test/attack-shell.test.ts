// `bloom shell`, the SSTable command protocol, attacked through its session
// object (the process wrapper is covered in test/cli.test.ts): exact reply
// bytes for the worked examples, and malformed BLOOM-NEW arguments, which
// must be refused with an ERR line quoting the user's own token and leave
// the current filter as it was.

import { describe, expect, it } from 'vitest';
import { ShellSession } from '../src/cli/shell.js';

function bitsText(reply: ReturnType<ShellSession['execute']>): string {
  if (reply === null || typeof reply === 'string') throw new Error('BLOOM-BITS replied ' + String(reply));
  return Buffer.concat([...reply]).toString('latin1');
}

describe('BLOOM-NEW arguments are whole decimal numbers', () => {
  it.each([
    ['0x10 3', 'ERR bits must be an integer in [1, 34358689792]; got "0x10"'],
    ['1e3 3', 'ERR bits must be an integer in [1, 34358689792]; got "1e3"'],
    ['0b11 3', 'ERR bits must be an integer in [1, 34358689792]; got "0b11"'],
    ['Infinity 3', 'ERR bits must be an integer in [1, 34358689792]; got "Infinity"'],
    ['99999999999999999999 3', 'ERR bits must be an integer in [1, 34358689792]; got "99999999999999999999"'],
    ['100 0x3', 'ERR hashes must be an integer in [1, 64]; got "0x3"'],
    ['100 3.0', 'ERR hashes must be an integer in [1, 64]; got "3.0"'],
    ['100 +3', 'ERR hashes must be an integer in [1, 64]; got "+3"'],
    ['100 18446744073709551617', 'ERR hashes must be an integer in [1, 64]; got "18446744073709551617"'],
  ])('BLOOM-NEW %s is refused, quoting the token, and the filter is kept', (args, reply) => {
    const s = new ShellSession();
    expect(s.execute('BLOOM-ADD apple')).toBeNull();
    expect(s.execute(`BLOOM-NEW ${args}`)).toBe(reply);
    expect(s.filter.bits).toBe(100);
    expect(s.execute('BLOOM-CHECK apple')).toBe('MAYBE');
  });

  it('leading zeros are still decimal: BLOOM-NEW 0100 03 is m = 100, k = 3', () => {
    const s = new ShellSession();
    expect(s.execute('BLOOM-NEW 0100 03')).toBeNull();
    expect([s.filter.bits, s.filter.hashes]).toEqual([100, 3]);
  });
});

describe('the worked examples, byte for byte', () => {
  it('apple sets bits 18, 24 and 30; banana 9, 51 and 93; checks need all three bits', () => {
    const s = new ShellSession();
    s.execute('BLOOM-ADD apple');
    const apple = bitsText(s.execute('BLOOM-BITS'));
    expect(apple).toBe([...Array(100).keys()].map((i) => ([18, 24, 30].includes(i) ? '1' : '0')).join('') + '\n');
    expect(s.execute('BLOOM-CHECK banana')).toBe('NO');
    s.execute('BLOOM-NEW');
    s.execute('BLOOM-ADD banana');
    expect(bitsText(s.execute('BLOOM-BITS'))).toBe([...Array(100).keys()].map((i) => ([9, 51, 93].includes(i) ? '1' : '0')).join('') + '\n');
    s.execute('BLOOM-NEW');
    for (const k of ['foo', 'bar', 'baz']) s.execute(`BLOOM-ADD ${k}`);
    expect(s.execute('BLOOM-CHECK qux')).toBe('NO');
  });

  it('BLOOM-BITS of a filter of 2^20 + 3 bits is one line of exactly that many digits, with the added bits where the filter has them', () => {
    const s = new ShellSession();
    expect(s.execute(`BLOOM-NEW ${2 ** 20 + 3} 3`)).toBeNull();
    s.execute('BLOOM-ADD apple');
    const text = bitsText(s.execute('BLOOM-BITS'));
    expect(text.length).toBe(2 ** 20 + 4);
    expect(text.endsWith('\n')).toBe(true);
    expect(/^[01]+\n$/.test(text)).toBe(true);
    const ones = [...text].flatMap((c, i) => (c === '1' ? [i] : []));
    // bytesum: h1 = 530 mod m, h2 = 1594 mod m, positions (h1 + i*h2) mod m.
    expect(ones).toEqual([530, 530 + 1594, 530 + 2 * 1594]);
    expect(s.execute('BLOOM-COUNT')).toBe('3');
  });
});
