// A chain read from bytes reaches the chain's constructor through its one
// public parameter, the options: wrapped under a symbol that no caller's
// options can hold. Its own file because decoding is the format's side of
// the chain (src/format/chain.ts does the bytes), apart from how the chain
// grows and answers.

import { type ChainMember, type Checksum, decodeChain, type DecodedChain } from '../format/chain.js';
import type { ScalableOptions } from './plan.js';

/** What restoreChain needs of a kind of member (src/scalable/scalable-over.ts's ChainKind is one): a reader of a member's bytes, and the checksum. */
interface MemberReader<F> {
  fromBytes(bytes: Uint8Array): F;
  readonly xxh64: Checksum;
}

/** Marks the constructor argument that fromBytes passes: a decoded chain to adopt. */
const RESTORED = Symbol('restored chain');

/** A decoded chain, wrapped so the constructor can tell it from options. */
interface Restored<F> {
  readonly [RESTORED]: DecodedChain<F>;
}

/**
 * Decodes `bytes` into the argument a subclass's fromBytes passes to its
 * constructor. Typed as options because that is the constructor's public
 * parameter; the symbol key (private to this module) tells them apart.
 */
export function restoreChain<F extends ChainMember>(bytes: Uint8Array, kind: MemberReader<F>): ScalableOptions {
  return restoredFrom(decodeChain(bytes, (member) => kind.fromBytes(member), kind.xxh64));
}

/** The same argument for a chain decoded elsewhere (src/node streams one from a file). @internal */
export function restoredFrom<F extends ChainMember>(chain: DecodedChain<F>): ScalableOptions {
  const restored: Restored<F> = { [RESTORED]: chain };
  return restored as unknown as ScalableOptions;
}

/** The decoded chain `options` wraps (restoreChain, restoredFrom), or undefined for options a caller wrote. */
export function restoredChain<F>(options: ScalableOptions): DecodedChain<F> | undefined {
  return typeof options === 'object' && options !== null && RESTORED in options
    ? (options as unknown as Restored<F>)[RESTORED]
    : undefined;
}
