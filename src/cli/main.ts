#!/usr/bin/env node
// The `bloom` command: dispatches to src/cli/<subcommand>.ts, whose run(argv)
// resolves to the exit code (0 ok, 1 runtime error, 2 usage error).

import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { fail, type Subcommand } from './common.js';

/** The subcommands, loaded on demand so that `bloom shell` does not load the demo. */
const SUBCOMMANDS: Record<string, { summary: string; load: () => Promise<Subcommand> }> = {
  dedupe: { summary: 'print each line of FILEs (or stdin) the first time it is seen', load: () => import('./dedupe.js') },
  shell: { summary: 'the SSTable command protocol (BLOOM-NEW/ADD/CHECK/BITS/COUNT) on stdin', load: () => import('./shell.js') },
  info: { summary: 'describe a saved filter or chain file', load: () => import('./info.js') },
  build: { summary: 'build a static binary fuse filter of the lines of a file (-o FILE)', load: () => import('./build.js') },
  check: { summary: 'print the lines of stdin that a binary fuse filter file may hold', load: () => import('./check.js') },
  demo: { summary: 'crawl a synthetic web with a Bloom filter as the seen-set', load: () => import('./demo.js') },
  serve: { summary: 'serve the playground page on 127.0.0.1 (--port N)', load: () => import('./serve.js') },
};

/** The top-level help text. */
export const USAGE = `Usage: bloom <command> [options]

Commands:
${Object.entries(SUBCOMMANDS).map(([name, s]) => `  ${name.padEnd(8)}${s.summary}`).join('\n')}

Run 'bloom <command> --help' for a command's options.
Exit codes: 0 success, 1 runtime error, 2 usage error.
`;

/** Runs the command line `argv` (without node and the script) and resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  // Global options come before the command; everything after the command
  // word is the subcommand's own, parsed (strictly) by its run().
  const { tokens } = parseArgs({
    args: argv,
    options: { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean' } },
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const command = tokens.find((t) => t.kind === 'positional');
  const globals = tokens.filter((t) => command === undefined || t.index < command.index);
  for (const token of globals) {
    if (token.kind !== 'option') continue;
    if (token.name === 'help') {
      process.stdout.write(USAGE);
      return 0;
    }
    if (token.name === 'version') {
      const pkg = createRequire(import.meta.url)('../../package.json') as { version: string };
      process.stdout.write(`${pkg.version}\n`);
      return 0;
    }
    return fail(2, `unknown option '${token.rawName}' before the command (try 'bloom --help')`);
  }
  if (command === undefined || command.kind !== 'positional') {
    return fail(2, `missing command: one of ${Object.keys(SUBCOMMANDS).join(', ')} (try 'bloom --help')`);
  }
  const name = command.value;
  if (name === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const entry = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
  if (entry === undefined) return fail(2, `unknown command '${name}' (try 'bloom --help')`);
  let sub: Subcommand;
  try {
    sub = await entry.load();
  } catch (error) {
    return fail(1, `cannot load the '${name}' command: ${(error as Error).message}`);
  }
  return sub.run(argv.slice(command.index + 1));
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bloom: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
