#!/usr/bin/env node
// The `bloom` command: dispatches to src/cli/<subcommand>.ts, whose run(argv)
// resolves to the exit code (0 ok, 1 runtime error, 2 usage error).

import { parseArgs } from 'node:util';
import { fail, type Subcommand } from './common.js';

/** The subcommands, loaded on demand so that `bloom shell` does not load the demo. */
const SUBCOMMANDS: Record<string, { summary: string; load: () => Promise<Subcommand> }> = {
  dedupe: { summary: 'print each line of FILEs (or stdin) the first time it is seen', load: () => import('./dedupe.js') },
  shell: { summary: "seed 001's BLOOM-NEW/ADD/CHECK/BITS/COUNT protocol on stdin", load: () => import('./shell.js') },
  info: { summary: 'describe a saved filter file', load: () => import('./info.js') },
  demo: { summary: 'crawl a synthetic web with a Bloom filter as the seen-set', load: () => import('./demo.js') },
  // Written by the issue-6 work; the specifier is held in a variable so the
  // build does not require the file to exist yet.
  serve: { summary: 'serve the browser demo over HTTP', load: () => import(SERVE_MODULE) as Promise<Subcommand> },
};

const SERVE_MODULE = './serve.js';

/** The top-level help text. */
export const USAGE = `Usage: bloom <command> [options]

Commands:
${Object.entries(SUBCOMMANDS).map(([name, s]) => `  ${name.padEnd(8)}${s.summary}`).join('\n')}

Run 'bloom <command> --help' for a command's options.
Exit codes: 0 success, 1 runtime error, 2 usage error.
`;

/** Runs the command line `argv` (without node and the script) and resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (name === '--version') {
    const { values } = parseArgs({ args: [name], options: { version: { type: 'boolean' } } });
    if (values.version) process.stdout.write('0.1.0\n');
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
  return sub.run(rest);
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
