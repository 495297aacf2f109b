// The published types compile in a strict consumer project whatever its
// environment: Node's types without the DOM lib (so no WebAssembly
// namespace), or the DOM lib without Node's types. skipLibCheck is off, so
// tsc checks every declaration file the package's entry points reach, not
// only the consumer's file. The consumer imports the package by name, through
// node_modules/bloomwasm, so that package.json's `exports` pick the
// declarations as they do for a user.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../', import.meta.url));
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; exports: Record<string, unknown> };
/** The package's entry points as a user imports them: 'bloomwasm', 'bloomwasm/node', ... */
const entries = Object.keys(pkg.exports)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`));

const common = { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', skipLibCheck: false };
const environments = {
  'Node (lib es2022, types node)': { ...common, lib: ['es2022'], types: ['node'], typeRoots: [join(root, 'node_modules/@types')] },
  'a browser (lib es2022 and dom, no types)': { ...common, lib: ['es2022', 'dom'], types: [] },
};

let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'bloomwasm-types-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(root, join(project, 'node_modules', pkg.name), 'junction');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(
    join(project, 'consumer.ts'),
    [
      ...entries.map((entry, i) => `import * as entry${i} from '${entry}';`),
      `import type { SharedFilterHandle } from '${pkg.name}';`,
      // The shared memory in a handle, as far as the published types let a caller use it.
      'declare const handle: SharedFilterHandle;',
      'export const buffer: ArrayBuffer | SharedArrayBuffer = handle.memory.buffer;',
      `export const entries = [${entries.map((_, i) => `entry${i}`).join(', ')}];`,
      '',
    ].join('\n'),
  );
});

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('the published types', () => {
  it('are imported from every entry point of package.json', () => {
    expect(entries).toEqual(expect.arrayContaining(['bloomwasm', 'bloomwasm/node', 'bloomwasm/redis', 'bloomwasm/reference', 'bloomwasm/core', 'bloomwasm/browser']));
  });

  it.each(Object.entries(environments))('compile under strict in %s, with skipLibCheck off', (name, options) => {
    const config = `tsconfig.${Object.keys(environments).indexOf(name)}.json`;
    writeFileSync(join(project, config), JSON.stringify({ compilerOptions: options, files: ['consumer.ts'] }, null, 2));
    const run = spawnSync(process.execPath, [tsc, '-p', config], { cwd: project, encoding: 'utf8' });
    const output = `${run.stdout}${run.stderr}`;
    expect(run.status, `tsc -p ${config} (${JSON.stringify(options)}):\n${output}`).toBe(0);
    expect(output).toBe('');
  });
});
