// One 40 MB line through `bloom build -` and `bloom check`, from a regular
// file and from a pipe (`cat FILE |`): a pipe hands over at most 64 KiB a
// read, and the line must still cost what it costs from a file, at most 3x
// plus a second (docs/CLI.md). Timed, so kept with the slow tests; each
// time is the better of two runs, the machine being shared.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/bin.js';

const dir = mkdtempSync(join(tmpdir(), 'bloom-long-line-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LINE = 40 * 2 ** 20;
const long = join(dir, 'long.txt');
const fd = openSync(long, 'w');
const block = Buffer.alloc(2 ** 20, 'a');
for (let i = 0; i < LINE / block.length; i++) writeSync(fd, block);
writeSync(fd, '\n');
closeSync(fd);

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** Seconds that `sh -c script` took, the better of two runs; the script must succeed. */
function seconds(script: string): number {
  let best = Infinity;
  for (let run = 0; run < 2; run++) {
    const started = performance.now();
    const r = spawnSync('sh', ['-c', script], { encoding: 'utf8' });
    const took = (performance.now() - started) / 1000;
    expect(r.status, r.stderr).toBe(0);
    best = Math.min(best, took);
  }
  return best;
}

describe('a 40 MB line from a pipe', () => {
  const bloom = `${quote(process.execPath)} ${quote(BIN)}`;

  it('costs bloom build at most 3x what it costs from a file, plus a second', () => {
    const out = join(dir, 'long.blmf');
    const file = seconds(`${bloom} build ${quote(long)} -o ${quote(out)}`);
    const pipe = seconds(`cat ${quote(long)} | ${bloom} build - -o ${quote(out)}`);
    console.log(`bloom build, one 40 MB line: ${file.toFixed(2)} s from a file, ${pipe.toFixed(2)} s from a pipe`);
    expect(pipe).toBeLessThanOrEqual(3 * file + 1);
  }, 600_000);

  it('costs bloom check at most 3x what it costs from a file, plus a second', () => {
    const keys = join(dir, 'keys.txt');
    const filter = join(dir, 'keys.blmf');
    expect(spawnSync('sh', ['-c', `printf 'a\\nb\\n' > ${quote(keys)} && ${bloom} build ${quote(keys)} -o ${quote(filter)}`]).status).toBe(0);
    const file = seconds(`${bloom} check ${quote(filter)} < ${quote(long)} > /dev/null`);
    const pipe = seconds(`cat ${quote(long)} | ${bloom} check ${quote(filter)} > /dev/null`);
    console.log(`bloom check, one 40 MB line: ${file.toFixed(2)} s from a file, ${pipe.toFixed(2)} s from a pipe`);
    expect(pipe).toBeLessThanOrEqual(3 * file + 1);
  }, 600_000);
});
