// The reference twin on the reference C implementation's largest vectors
// (10^6 keys, 8 and 16 bits): its BigInt construction takes seconds a
// vector, so it is kept apart from the fast suites (test/binary-fuse.test.ts
// runs it to 10^5); CI still runs it.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BinaryFuseFilter } from '../../src/reference/index.js';
import { splitmixKeys } from '../helpers/fuse-keys.js';

const vectors = JSON.parse(readFileSync(new URL('../golden/binary-fuse-reference.json', import.meta.url), 'utf8')) as {
  digests: { bits: 8 | 16; n: number; seed: string; sha256: string }[];
};

describe('the reference twin at 10^6 keys', () => {
  it.each(vectors.digests.filter((v) => v.n > 100_000))('$bits bits, $n keys: the reference\'s bytes', ({ bits, n, seed, sha256 }) => {
    const f = BinaryFuseFilter.fromKeys(splitmixKeys(n, BigInt(seed)), { fingerprintBits: bits });
    expect(createHash('sha256').update(f.toReferenceBytes()).digest('hex')).toBe(sha256);
  }, 300_000);
});
