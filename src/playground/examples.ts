// The playground's worked examples: the calls of the SeenFilter exercise and
// of the SSTable command protocol, with their published answers, played at
// once or replayed one call per press.

import type { Scheme } from '../index.js';
import { quote } from './format.js';

/** One call of a worked example. */
export type Step = { op: 'add' | 'check'; item: string } | { op: 'bitsSet' };

/** A worked example: the filter it starts from and the calls it makes. */
export interface Example {
  /** What the example is, as the status line names it. */
  name: string;
  bits: number;
  hashes: number;
  scheme: Scheme;
  steps: Step[];
  /** Why its measured, current and theoretical rates differ, shown under the chart while it is loaded. */
  ratesNote?: string;
}

/** The examples' ids, which are also their buttons' ids after `example-`. */
export type ExampleId = 'seen-filter' | 'sstable';

/** The worked examples of the source documents. */
export const EXAMPLES: Record<ExampleId, Example> = {
  // new SeenFilter(16, 3); add cats.io, dogs.io, owls.io; bitsSet() is 9;
  // dogs.io MAYBE, yaks.io NO, bats.io MAYBE (a false positive).
  'seen-filter': {
    name: 'The SeenFilter exercise',
    bits: 16,
    hashes: 3,
    scheme: 'poly',
    steps: [
      { op: 'add', item: 'cats.io' },
      { op: 'add', item: 'dogs.io' },
      { op: 'add', item: 'owls.io' },
      { op: 'bitsSet' },
      { op: 'check', item: 'dogs.io' },
      { op: 'check', item: 'yaks.io' },
      { op: 'check', item: 'bats.io' },
    ],
    // The numbers are recomputed from the library in test/playground-examples.test.ts.
    ratesNote:
      'Why measured runs above both: not the hash (the probes\' h1 and h2 are uniform mod 16) but the probe rule. ' +
      'poly\'s positions h1 + i·h2 mod 16 are not independent: an even h2, half of all items, keeps all three on one parity ' +
      '(h2 ≡ 0 or 8 even repeats a bit), and cats, dogs and owls set 7 of the 8 odd bits, so over all 256 (h1, h2) pairs ' +
      'these bits answer MAYBE to 59 (23.0%; 2,000 probes measure it give or take two points), not (9/16)³ = 17.8%. ' +
      'Theory is lower again: it expects 6.9 bits set ' +
      '(1 − e^(−9/16) of 16), and these three items set 9.',
  },
  // BLOOM-NEW with m = 100, k = 3; apple sets {30, 24, 18}; banana needs
  // {9, 51, 93}, all 0, so BLOOM-CHECK banana prints NO.
  sstable: {
    name: 'The SSTable command protocol',
    bits: 100,
    hashes: 3,
    scheme: 'bytesum',
    steps: [
      { op: 'add', item: 'apple' },
      { op: 'check', item: 'apple' },
      { op: 'check', item: 'banana' },
    ],
  },
};

/** A step as the step button names it. */
export function describeStep(step: Step): string {
  return step.op === 'bitsSet' ? 'bitsSet()' : `${step.op === 'add' ? 'add' : 'check'} ${quote(step.item)}`;
}

/** What the player needs of the page. */
export interface ExampleHost {
  /** Resets the form and the filter to the example's m, k and scheme. */
  load(example: Example): void;
  /** Runs one call against the filter. */
  run(step: Step): void;
  /** Shows the step button with `button` as its text (null hides it), and `status` below it. */
  show(button: string | null, status: string): void;
}

const REPLAY = 'Replay it step by step';

/** Plays an example at once, then replays it from an empty filter one call per press. */
export class ExamplePlayer {
  private readonly host: ExampleHost;
  /** The example being replayed, and the index of its next step. */
  private replay: { id: ExampleId; next: number } | null = null;
  /** The example last played, which the step button replays. */
  private last: ExampleId | null = null;

  /** A player driving `host`. */
  constructor(host: ExampleHost) {
    this.host = host;
  }

  /** Loads the example and plays all its calls. */
  play(id: ExampleId): void {
    const example = EXAMPLES[id];
    this.host.load(example);
    for (const step of example.steps) this.host.run(step);
    this.replay = null;
    this.last = id;
    this.host.show(REPLAY, `${example.name}: ${example.steps.length} calls played.`);
  }

  /** The step button: starts a replay from an empty filter, then runs one call per press. */
  step(): void {
    if (this.last === null) return;
    if (this.replay === null) {
      this.host.load(EXAMPLES[this.last]);
      this.replay = { id: this.last, next: 0 };
    } else {
      this.host.run(EXAMPLES[this.replay.id].steps[this.replay.next++]);
    }
    const { name, steps } = EXAMPLES[this.replay.id];
    const next = this.replay.next;
    if (next < steps.length) {
      const status = next === 0 ? `${name}: an empty filter.` : `${name}: ${next} of ${steps.length} calls done.`;
      this.host.show(`Next: ${describeStep(steps[next])} (${next + 1} of ${steps.length})`, status);
    } else {
      this.host.show(REPLAY, `${name}: all ${steps.length} calls done.`);
      this.replay = null;
    }
  }

  /** Forgets the example: a filter of the user's own ends any replay. */
  forget(): void {
    this.replay = null;
    this.last = null;
    this.host.show(null, '');
  }
}
