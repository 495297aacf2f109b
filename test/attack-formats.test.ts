// File loading attacked with cut-short and crafted inputs: every refusal is a
// BloomFormatError naming a field and an offset that tell the truth about
// the input, identical through fromBytes (wasm and reference) and the Node
// file loaders.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BloomFormatError } from '../src/errors.js';
import * as wasm from '../src/index.js';
import { loadFile, loadFileSync } from '../src/node/index.js';
import * as reference from '../src/reference/index.js';
import { BIN } from './helpers/bin.js';

const dir = mkdtempSync(join(tmpdir(), 'bloom-attack-formats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a chain cut short inside its first member', () => {
  const chain = new reference.ScalableBloomFilter({ capacity: 10, falsePositiveRate: 0.01 });
  chain.add('a');
  const whole = chain.toBytes();

  it.each([64, 65, 100, 120])('a %i-byte prefix is refused as truncated at members[0], byte 64, not as a bad filterCount', async (length) => {
    const cut = whole.slice(0, length);
    const message = `invalid bloomwasm filter data: members[0] at byte 64: truncated: the first member needs at least 57 bytes, to byte 121, but the input ends at byte ${length}`;
    for (const load of [(b: Uint8Array) => wasm.ScalableBloomFilter.fromBytes(b), (b: Uint8Array) => reference.ScalableBloomFilter.fromBytes(b)]) {
      let caught: unknown;
      try {
        load(cut);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(BloomFormatError);
      expect(caught).toMatchObject({ field: 'members[0]', offset: 64, message });
    }
    const path = join(dir, `cut-${length}.bloom`);
    writeFileSync(path, cut);
    expect(() => loadFileSync(path, wasm.ScalableBloomFilter)).toThrow(message);
    await expect(loadFile(path, wasm.ScalableBloomFilter)).rejects.toMatchObject({ field: 'members[0]', offset: 64, message });
  });

  it('a cut inside a later member still names filterCount with the count the input can hold', () => {
    const big = new reference.ScalableBloomFilter({ capacity: 1, falsePositiveRate: 0.01 });
    for (let i = 0; i < 4; i++) big.add(`item-${i}`);
    const bytes = big.toBytes();
    expect(big.members.length).toBe(3);
    expect(() => wasm.ScalableBloomFilter.fromBytes(bytes.slice(0, 64 + 57 + 57))).toThrow(
      'filterCount at byte 48: must be in [1, 2] for a 178-byte input (each member takes at least 57 bytes); got 3',
    );
  });
});

describe('inputs that are not regular files', () => {
  it.each(['/dev/zero', '/dev/null'])('%s is refused as not a regular file, not as "truncated at byte 0"', async (path) => {
    const { loadFileSync, loadFile } = await import('../src/node/index.js');
    const { inspectFileSync } = await import('../src/node/inspect.js');
    const message = `path must be a regular file (a pipe, socket, device or directory has no size to check the headers against: save it to a file first); got "${path}"`;
    for (const load of [loadFileSync, (p: string) => loadFileSync(p, wasm.ScalableBloomFilter), (p: string) => loadFileSync(p, wasm.CountingBloomFilter), inspectFileSync]) {
      expect(() => load(path)).toThrow(new wasm.BloomTypeError('path', path, 'a regular file (a pipe, socket, device or directory has no size to check the headers against: save it to a file first)'));
      expect(() => load(path)).toThrow(message);
    }
    await expect(loadFile(path)).rejects.toThrow(message);
  });

  it('bloom info on a pipe with a whole, valid filter in it says so (run `npm run build` first)', async () => {
    const { spawnSync } = await import('node:child_process');
    const bytes = new reference.BloomFilter(100, 3).toBytes();
    writeFileSync(join(dir, 'whole.bloom'), bytes);
    const again = spawnSync('sh', ['-c', `cat "$0" | "${process.execPath}" "$1" info /dev/stdin`, join(dir, 'whole.bloom'), BIN]);
    expect(again.stderr.toString()).toBe(
      'bloom: cannot read /dev/stdin: path must be a regular file (a pipe, socket, device or directory has no size to check the headers against: save it to a file first); got "/dev/stdin"\n',
    );
    expect(again.status).toBe(1);
  });
});
