// `bloom check FILE` and `bloom info FILE` answer for a file of every kind
// the package saves (saveFile's six kinds, `bloom build`'s binary fuse
// filter, `bloom dedupe --state`'s filter, chain and sliding window), as
// real processes over the built command (run `npm run build` first). Both
// only read FILE: its bytes and its times stay as they were. Their
// messages speak of files and commands, never of library calls.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as wasm from '../src/index.js';
import { saveFileSync } from '../src/node/index.js';
import { BIN } from './helpers/bin.js';
import { everyKind } from './helpers/kinds.js';

const dir = mkdtempSync(join(tmpdir(), 'bloom-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bloom(args: string[], input = ''): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [BIN, ...args], { input, encoding: 'utf8' });
}

/** The file's bytes (as their SHA-256, a short string to compare) and times, to show a command left it alone. */
const snapshot = (path: string) => ({
  sha256: createHash('sha256').update(readFileSync(path)).digest('hex'),
  mtimeMs: statSync(path).mtimeMs,
  ctimeMs: statSync(path).ctimeMs,
});

/** Every kind saved to a file, each holding item-0 .. item-299 (the binary fuse filter key-0 .. key-299). */
const filters = everyKind(wasm);
const files = Object.fromEntries(
  Object.entries(filters).map(([kind, f]) => {
    const path = join(dir, `${kind}.bin`);
    saveFileSync(f, path);
    return [kind, path];
  }),
) as Record<keyof typeof filters, string>;

/** Lines to check: 20 held ones and 20 absent ones, in a mix; and what each filter says of them. */
function probe(kind: keyof typeof filters): { input: string; held: string; absent: string } {
  const prefix = kind === 'fuse' ? 'key' : 'item';
  const lines = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? `${prefix}-${i * 7}` : `absent-${i}`));
  const f = filters[kind];
  const flags = f.hasMany(lines);
  return {
    input: lines.join('\n') + '\n',
    held: lines.filter((_, i) => flags[i] === 1).map((l) => `${l}\n`).join(''),
    absent: lines.filter((_, i) => flags[i] === 0).map((l) => `${l}\n`).join(''),
  };
}

describe('bloom check FILE, for every kind', () => {
  it.each(Object.keys(files) as (keyof typeof filters)[])('%s: prints the lines the filter may hold (--invert: the others), as has() says, and leaves FILE as it was', (kind) => {
    const before = snapshot(files[kind]);
    const { input, held, absent } = probe(kind);
    expect(held).toContain(kind === 'fuse' ? 'key-0\n' : 'item-0\n');
    const r = bloom(['check', files[kind]], input);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(held);
    const inv = bloom(['check', '--invert', files[kind]], input);
    expect(inv.status).toBe(0);
    expect(inv.stdout).toBe(absent);
    expect(snapshot(files[kind])).toEqual(before);
  });

  it('checks the state bloom dedupe keeps: a filter, a chain, a sliding window', () => {
    const lines = Array.from({ length: 500 }, (_, i) => `https://example.com/${i}`);
    for (const flags of [['--capacity', '1000'], [], ['--window', '300']]) {
      const state = join(dir, `state-${flags.join('') || 'chain'}.bloom`);
      const d = bloom(['dedupe', '--state', state, ...flags], lines.join('\n') + '\n');
      expect(d.status, d.stderr).toBe(0);
      const before = snapshot(state);
      const r = bloom(['check', state], 'https://example.com/499\nhttps://example.com/0\nnever seen\n');
      expect(r.status, r.stderr).toBe(0);
      // Line 0 is 500 lines back: past the window of 300, and past the seventh of a window an item may linger.
      expect(r.stdout).toBe(flags[0] === '--window' ? 'https://example.com/499\n' : 'https://example.com/499\nhttps://example.com/0\n');
      expect(snapshot(state)).toEqual(before);
    }
  });

  it('refuses a file of no kind, in the words of a command', () => {
    const path = join(dir, 'notes.txt');
    writeFileSync(path, 'hello, world\n');
    for (const command of ['check', 'info']) {
      const r = bloom([command, path], 'a\n');
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `bloom: cannot read ${path}: invalid bloomwasm filter data: magic at byte 0: not a bloomwasm file: it must start with one of "BLMW", "BLMC", "BLM4", "BLMS", "BLMK", "BLMF"; got 68 65 6c 6c\n`,
      );
      expect(r.stderr).not.toMatch(/load it|fromBytes|loadFile/);
    }
  });

  it('refuses a corrupt file of each kind naming the field, without library advice', () => {
    for (const [kind, path] of Object.entries(files)) {
      const bytes = readFileSync(path);
      bytes[bytes.length - 1] ^= 0x10;
      const bad = join(dir, `bad-${kind}.bin`);
      writeFileSync(bad, bytes);
      for (const command of ['check', 'info']) {
        const r = bloom([command, bad], 'a\n');
        expect(r.status, `${command} ${kind}`).toBe(1);
        expect(r.stderr, `${command} ${kind}`).toMatch(new RegExp(`^bloom: cannot read ${bad}: invalid bloomwasm filter data: \\S+ at byte \\d+: `));
        expect(r.stderr).not.toMatch(/load it|fromBytes|loadFile/);
      }
    }
  });
});

describe('bloom info FILE, for every kind', () => {
  it.each(Object.keys(files) as (keyof typeof filters)[])('%s: describes it as JSON, and leaves FILE as it was', (kind) => {
    const before = snapshot(files[kind]);
    const r = bloom(['info', '--json', files[kind]]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const info = JSON.parse(r.stdout) as { file: string; kind?: string };
    expect(info.file).toBe(files[kind]);
    const kinds = { filter: undefined, chain: 'scalable chain', counting: 'counting filter', sliding: 'sliding filter', cuckoo: 'cuckoo filter', fuse: 'binary fuse' };
    expect(info.kind).toBe(kinds[kind]);
    if (kind === 'filter') expect(info).toMatchObject({ bits: filters.filter.bits, hashes: filters.filter.hashes, addedCount: 300, sizeOnDisk: statSync(files[kind]).size });
    const text = bloom(['info', files[kind]]);
    expect(text.status).toBe(0);
    expect(text.stdout.split('\n').length).toBeGreaterThan(3);
    expect(snapshot(files[kind])).toEqual(before);
  });
});

describe('bloom dedupe --state FILE of a kind it cannot keep lines in', () => {
  it.each(['counting', 'cuckoo', 'fuse'] as const)('%s: exit 1 naming the kind, FILE left as it was, nothing printed', (kind) => {
    const before = snapshot(files[kind]);
    const r = bloom(['dedupe', '--state', files[kind]], 'a\nb\n');
    const names = { counting: 'CountingBloomFilter', cuckoo: 'CuckooFilter', fuse: 'BinaryFuseFilter' };
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `bloom: cannot use --state ${files[kind]} (left untouched): it holds a ${names[kind]}, and dedupe keeps its lines in a Bloom filter, a scalable chain or a sliding window\n`,
    );
    expect(snapshot(files[kind])).toEqual(before);
  });
});
