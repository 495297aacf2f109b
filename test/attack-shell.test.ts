// `bloom shell`, the SSTable command protocol, attacked through its session
// object (the process wrapper is covered in test/cli.test.ts): exact reply
// bytes for the worked examples, and malformed BLOOM-NEW arguments, which
// must be refused with an ERR line quoting the user's own token and leave
// the current filter as it was.

import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ShellSession } from '../src/cli/shell.js';
import { BIN } from './helpers/bin.js';


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

describe('bloom shell as a process (run `npm run build` first)', () => {
  it.each([
    ['a BLOOM-BITS of 10^8 bits', 'BLOOM-NEW 100000000 3\nBLOOM-BITS\nBLOOM-BITS\n'],
    ['20,000 short replies', Array.from({ length: 20_000 }, (_, i) => `BLOOM-CHECK k${i}\n`).join('')],
  ])('a reader that goes away after 10 bytes of %s: exit 141 and nothing on stderr, no EPIPE stack', async (_what, input) => {
    const child = spawn(process.execPath, [BIN, 'shell'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.on('error', () => {}); // the shell may be gone before all of stdin is written
    child.stdin.end(input);
    const first = await new Promise<Buffer>((resolve) => child.stdout.once('data', resolve));
    expect(first.subarray(0, 2).toString()).toMatch(/^(00|NO)$/);
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(141);
  });
});

describe('keys are hashed as the bytes sent', () => {
  const line = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

  it('the single bytes C3 and C4 (not UTF-8) are two keys: byte sum 195 sets bits 85, 90 and 95; C4 is not found', () => {
    const s = new ShellSession();
    expect(s.execute(line('BLOOM-ADD ', [0xc3]))).toBeNull();
    expect(s.execute(line('BLOOM-CHECK ', [0xc3]))).toBe('MAYBE');
    expect(s.execute(line('BLOOM-CHECK ', [0xc4]))).toBe('NO');
    expect(s.execute(line('BLOOM-CHECK ', [0xef, 0xbf, 0xbd]))).toBe('NO');
    const bits = bitsText(s.execute(line('BLOOM-BITS')));
    expect([...bits].flatMap((c, i) => (c === '1' ? [i] : []))).toEqual([85, 90, 95]);
  });

  it('a UTF-8 key hashes as before: the same bits whether given as a string or as its bytes', () => {
    const a = new ShellSession();
    const b = new ShellSession();
    a.execute('BLOOM-ADD é日本 x');
    b.execute(line('BLOOM-ADD é日本 x'));
    expect(bitsText(b.execute('BLOOM-BITS'))).toBe(bitsText(a.execute('BLOOM-BITS')));
    for (const scheme of ['poly', 'xxh64']) {
      a.execute(`BLOOM-NEW 1000 3 ${scheme}`);
      b.execute(line(`BLOOM-NEW 1000 3 ${scheme}`));
      a.execute('BLOOM-ADD é');
      b.execute(line('BLOOM-ADD é'));
      expect(bitsText(b.execute('BLOOM-BITS'))).toBe(bitsText(a.execute('BLOOM-BITS')));
    }
  });

  it('through the process: C3 then C4 on stdin answer MAYBE then NO', async () => {
    const child = spawn(process.execPath, [BIN, 'shell'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('latin1')));
    child.stdin.end(Buffer.from([...Buffer.from('BLOOM-ADD '), 0xc3, 0x0d, 0x0a, ...Buffer.from('BLOOM-CHECK '), 0xc3, 0x0a, ...Buffer.from('BLOOM-CHECK '), 0xc4]));
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(0);
    expect(out).toBe('MAYBE\nNO\n');
  });
});
