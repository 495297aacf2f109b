// A caller's options object is caller code: a getter (or a Proxy's trap)
// may answer differently each time it is read, so a value checked on one
// read and used from another is not checked at all (STYLE.md, point 16).
// Every class reads its options here, each field once, into a frozen
// record, then checks and uses only that record. The rules are the same
// for every option of every class: undefined is absent (the default), and
// any other value, null included, must be a valid one.

import { BloomTypeError } from '../errors.js';

/** A caller's options, each named field read once: undefined where absent. */
export type OptionRecord<K extends string> = { readonly [P in K]?: unknown };

/** The records readOptions made: read again, they are returned as they are. */
const RECORDS = new WeakSet<object>();

/**
 * The prototype of every record: no properties and a null prototype, so
 * that a field a record lacks reads as undefined even where
 * Object.prototype has been given one. The records are not themselves
 * made with a null prototype: V8 keeps such an object as a dictionary,
 * whose loads miss the inline caches and go through the generic load (in
 * a filter's constructor, more than the rest of reading its options).
 */
const NOTHING: object = Object.freeze(Object.create(null));

/** The record of absent options, shared: undefined costs no allocation. */
const ABSENT = Object.freeze(Object.create(NOTHING) as Record<string, unknown>);

/**
 * Throws BloomTypeError naming `parameter` (`options`, or another object
 * of named fields such as a Redis filter's `sizing`) unless `options` is an
 * object that is not an array, and naming the field, `options.<field>`,
 * when it has one that is not among `names` and not undefined: a misspelt
 * option (`{ sceme: 'sbbf' }`) would otherwise give the default without a
 * word.
 */
function checkOptionsObject(options: unknown, names: readonly string[], allowed: string, parameter = 'options'): asserts options is Record<string, unknown> {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new BloomTypeError(parameter, options, allowed);
  }
  // The own enumerable keys, as Object.keys lists them, without the array it
  // allocates: digest() reads its options once an item.
  for (const key in options) {
    if (names.includes(key) || !Object.hasOwn(options, key)) continue;
    // undefined is absent here too, as for the options the call has.
    const value = (options as Record<string, unknown>)[key];
    if (value !== undefined) throw new BloomTypeError(`${parameter}.${key}`, value, `absent: the ${parameter === 'options' ? 'options' : 'fields'} here are ${names.join(', ')}`);
  }
}

/**
 * Reads each of `names` from `options` once, into a frozen record.
 * `options` must be an object that is not an array (an array is a list,
 * never a set of named options), or undefined unless `required` (every
 * field absent); otherwise BloomTypeError naming `parameter` (default
 * `options`), and `allowed`.
 * A record this function made is returned as it is, so passing one on
 * reads nothing of the caller's again.
 */
export function readOptions<K extends string>(options: unknown, names: readonly K[], allowed: string, required = false, parameter = 'options'): OptionRecord<K> {
  if (options === undefined && !required) return ABSENT as OptionRecord<K>;
  if (options === ABSENT || RECORDS.has(options as object)) return options as OptionRecord<K>;
  checkOptionsObject(options, names, allowed, parameter);
  const record = Object.create(NOTHING) as Record<K, unknown>;
  for (const name of names) record[name] = options[name];
  Object.freeze(record);
  RECORDS.add(record);
  return record;
}

/**
 * readOptions for options of one field, with no record: `name` read once
 * (undefined when `options` is), under the same rules, for calls made
 * once an item (digest).
 */
export function readOption(options: unknown, name: string, allowed: string): unknown {
  if (options === undefined) return undefined;
  checkOptionsObject(options, [name], allowed);
  return options[name];
}

/**
 * Refuses (BloomTypeError naming `options.<name>`) each of `names` that
 * the record gives: a forCapacity takes them as its arguments, which say
 * `given` (its words for them), so options that gave them again would be
 * a second answer to one question.
 */
export function refuseArguments<K extends string>(o: OptionRecord<K>, names: readonly K[], given: string): void {
  for (const name of names) {
    if (o[name] !== undefined) throw new BloomTypeError(`options.${name}`, o[name], `absent: forCapacity takes ${given} as its arguments`);
  }
}
