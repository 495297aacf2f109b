// `bloom build [--fingerprint-bits 16] KEYS.txt -o FILE`: a static binary
// fuse filter of the lines of KEYS.txt (or stdin, '-'), one item per line,
// saved atomically as a "BLMF" file. The lines are streamed: each chunk's
// lines are hashed to their 64-bit keys in wasm (XXH64, seed 0, as
// BinaryFuseFilter.from hashes them) and only the keys are kept, 8 bytes a
// line, until the filter is built from them with fromKeys; the file then
// loads with loadFile and answers has(line) for every line.

import { checkBatch } from '../filter/items.js';
import { BinaryFuseFilter } from '../fuse/binary-fuse.js';
import { MAX_FUSE_KEYS } from '../fuse/shape.js';
import { saveFileSync } from '../node/index.js';
import { itemKeysInto } from '../wasm/binary-fuse.js';
import { checkWritable, guard, parse, systemReason, UsageError } from './common.js';
import { grouped } from './grouped.js';
import { openInputs } from './io.js';
import { readLines } from './line-reader.js';
import { Progress } from './report.js';
import { closeSync } from 'node:fs';

/** The help text of `bloom build`. */
export const HELP = `Usage: bloom build [--fingerprint-bits 16] KEYS.txt -o FILE

Builds a static binary fuse filter of the lines of KEYS.txt (or stdin, as
'-'), one item per line, and saves it to FILE atomically (the "BLMF" format;
'bloom check FILE' checks lines against it, 'bloom info FILE' describes it).
Repeated lines are allowed. A line is what 'bloom dedupe' takes as one: the
bytes before \\n or the end of the input, less one \\r right before that end.
Each line is hashed to its key as BinaryFuseFilter.from hashes it (XXH64,
seed 0), so the filter answers has(line) for every line.

About 9.04 bits a line with 8-bit fingerprints (a false-positive rate of
1/256), 18.1 with 16 (1/65536). While building it holds 8 bytes a line, then
about 33 bytes a line in wasm memory; at most ${grouped(MAX_FUSE_KEYS)} lines.
A progress line appears on stderr when it is a terminal.

Options:
  -o, --output FILE        where to save the filter (required)
  --fingerprint-bits B     8 (default) or 16
  -h, --help               show this help

Exit codes: 0 done, 1 runtime error (unreadable input, FILE not writable,
more lines than a filter takes), 2 usage error; 130/143 after SIGINT/SIGTERM
(FILE is not written).
`;

/** Runs `bloom build`. */
export async function run(argv: string[]): Promise<number> {
  return guard(async () => {
    const { values, positionals } = parse(
      argv,
      { output: { type: 'string', short: 'o' }, 'fingerprint-bits': { type: 'string' } },
      true,
    );
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    if (positionals.length !== 1) throw new UsageError(`build takes exactly one KEYS file (or '-'); got ${positionals.length} (try 'bloom build --help')`);
    const output = values.output;
    if (output === undefined || output === '') throw new UsageError("build needs -o FILE, where to save the filter (try 'bloom build --help')");
    const bitsOption = values['fingerprint-bits'];
    if (bitsOption !== undefined && bitsOption !== '8' && bitsOption !== '16') {
      throw new UsageError(`--fingerprint-bits must be 8 or 16; got '${bitsOption}'`);
    }
    const fingerprintBits = bitsOption === '16' ? 16 : 8;
    checkWritable('-o', output);
    const inputs = openInputs(positionals);
    const progress = process.stderr.isTTY ? new Progress(inputs) : null;
    let keys = new BigUint64Array(1 << 16);
    let count = 0;
    try {
      // The first chunk draws at once, then at most every 100 ms.
      let lastDraw = -Infinity;
      for await (const chunk of readLines(inputs)) {
        const n = chunk.items.length;
        if (count + n > MAX_FUSE_KEYS) {
          throw new Error(`${positionals[0]} has more than ${grouped(MAX_FUSE_KEYS)} lines, the most one binary fuse filter takes: split the keys into shards (docs/SCHEMES.md)`);
        }
        if (count + n > keys.length) {
          const bigger = new BigUint64Array(Math.min(MAX_FUSE_KEYS, Math.max(count + n, keys.length * 2)));
          bigger.set(keys.subarray(0, count));
          keys = bigger;
        }
        itemKeysInto(checkBatch(chunk.items), keys, count);
        count += n;
        const now = performance.now();
        if (progress !== null && now - lastDraw >= 100) {
          progress.update(chunk.bytesRead, count);
          lastDraw = now;
        }
      }
    } finally {
      for (const input of inputs) if (input.fd !== 0) closeSync(input.fd);
    }
    progress?.clear();
    const started = performance.now();
    const filter = BinaryFuseFilter.fromKeys(keys.subarray(0, count), { fingerprintBits });
    try {
      saveFileSync(filter, output);
    } catch (error) {
      // Checked before the input was read, but a disk can fill or a directory go meanwhile.
      throw new Error(`cannot save -o ${output}: ${systemReason(error)}`);
    }
    if (process.stderr.isTTY) {
      const seconds = (performance.now() - started) / 1000;
      const perKey = count === 0 ? 'no lines' : `${((8 * filter.byteLength) / count).toFixed(2)} bits a line`;
      process.stderr.write(`${grouped(count)} lines, ${grouped(filter.byteLength)} bytes (${perKey}), built in ${seconds.toFixed(2)} s: ${output}\n`);
    }
    filter.dispose();
    return 0;
  });
}
