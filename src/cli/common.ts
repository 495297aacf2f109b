// Shared pieces of the `bloom` subcommands: argument parsing that turns
// mistakes into exit code 2, one-line errors on stderr, and checking that
// a file can be written.

import { closeSync, existsSync, openSync, realpathSync, statSync, unlinkSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** What each src/cli/<name>.ts exports. */
export interface Subcommand {
  /** Runs the subcommand on its arguments; resolves to the exit code. */
  run(argv: string[]): Promise<number>;
}

/** A usage mistake: reported on one line, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Prints `bloom: message` on stderr and returns `code`. */
export function fail(code: number, message: string): number {
  process.stderr.write(`bloom: ${message.split('\n')[0]}\n`);
  return code;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** The parsed values of `O`: strings for string options, booleans for flags, plus --help. */
export type Values<O extends Options> = { [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string } & { help?: boolean };

/** parseArgs in strict mode (with -h/--help added), its errors rethrown as UsageError. */
export function parse<O extends Options>(argv: string[], options: O, allowPositionals: boolean): { values: Values<O>; positionals: string[] } {
  try {
    const parsed = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals, strict: true });
    return { values: parsed.values as Values<O>, positionals: parsed.positionals };
  } catch (error) {
    // parseArgs refuses `--capacity -5` on three lines, and only the first
    // ("argument is ambiguous") would be printed: say what was given and how to pass it.
    const ambiguous = /^Option '(--[^']+)' argument is ambiguous/.exec((error as Error).message);
    if (ambiguous) {
      const option = ambiguous[1];
      const value = argv[argv.indexOf(option) + 1] ?? '';
      throw new UsageError(`${option} got '${value}', which starts with '-'; write ${option}=${value} to pass it as the value`);
    }
    throw new UsageError((error as Error).message);
  }
}

/** Parses a whole number option in [min, max]. */
export function intOption(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\s*[+]?\d+(e\d+)?\s*$/i.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be an integer in [${min}, ${max}]; got '${value}'`);
  }
  return n;
}

/** Parses a number option in the open interval (min, max). */
export function rateOption(name: string, value: string | undefined, fallback: number, min = 0, max = 1): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !(n > min && n < max)) {
    throw new UsageError(`--${name} must be a number in (${min}, ${max}); got '${value}'`);
  }
  return n;
}

/** Runs `body`, mapping UsageError to exit 2 and any other error to exit 1, each as one line. */
export async function guard(body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof UsageError) return fail(2, error.message);
    return fail(1, error instanceof Error ? error.message : String(error));
  }
}

/**
 * The system's reason for a failed call, without the path Node appends
 * ("EACCES: permission denied, open '/x/.tmp'" gives "permission denied
 * (EACCES)"): the path it names may be a probe or a temporary file the
 * user never asked for.
 */
export function systemReason(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  const text = /^[A-Z0-9_]+: ([^,]+)/.exec(String(message))?.[1];
  if (code === undefined) return String(message);
  return text === undefined ? code : `${text} (${code})`;
}

/**
 * Checks that the file `flag` names (the option as typed: `-o`, `--state`)
 * can be written (saved as a temporary file in its directory, then renamed
 * over it): the directory exists and accepts a new file, and the path is
 * not a directory. A test file is created and removed to know; failures
 * name `flag`, the path and the system's reason, never the test file.
 */
export function checkWritable(flag: string, path: string): void {
  let target = resolve(path);
  try {
    target = realpathSync(target);
  } catch {
    // Not there yet (or not reachable): the probe below tells which.
  }
  let isDirectory = false;
  try {
    isDirectory = statSync(target).isDirectory();
  } catch {
    // Not there yet: the probe decides.
  }
  if (isDirectory) throw new Error(`cannot save ${flag} ${path}: it is a directory`);
  const dir = dirname(target);
  const probe = `${dir}/.bloom-write-check-${process.pid}`;
  try {
    closeSync(openSync(probe, 'wx'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' && !existsSync(dir) ? `its directory ${dir} does not exist` : code === 'ENOTDIR' ? `${dir} is not a directory` : code === 'EEXIST' ? null : `its directory ${dir} is not writable: ${systemReason(error)}`;
    if (why === null) return;
    throw new Error(`cannot save ${flag} ${path}: ${why}`);
  }
  unlinkSync(probe);
}
