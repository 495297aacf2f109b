// `bloom info` for a cuckoo filter file: its shape, its totals, then one row
// per member (buckets, fingerprint bits, fingerprints held, rate bound).

import type { CuckooFileSummary } from '../node/inspect.js';
import { grouped as n } from './grouped.js';

/** Prints a cuckoo filter file through `report` (src/cli/info.ts's), as JSON or aligned rows. */
export function describeCuckoo(
  path: string, cuckoo: CuckooFileSummary, json: boolean, report: (info: object, json: boolean, rows: () => [string, string][]) => number,
): number {
  const { shape, members, states } = cuckoo.file;
  const list = members.map((m, j) => ({
    capacity: m.capacity, buckets: m.buckets, fingerprintBits: m.fingerprintBits, falsePositiveRate: m.falsePositiveRate, addedCount: states[j].held,
    load: states[j].held / (m.buckets * shape.bucketSize),
  }));
  const slots = members.reduce((sum, m) => sum + m.buckets * shape.bucketSize, 0);
  const info = {
    file: path,
    kind: 'cuckoo filter',
    version: 1,
    capacity: shape.capacity,
    falsePositiveRate: shape.falsePositiveRate,
    bucketSize: shape.bucketSize,
    growth: shape.growth,
    seed: shape.seed.toString(),
    memberCount: members.length,
    slots,
    addedCount: list.reduce((sum, m) => sum + m.addedCount, 0),
    sizeOnDisk: cuckoo.size,
    falsePositiveBound: list.reduce((sum, m) => sum + m.falsePositiveRate, 0),
    members: list,
  };
  return report(info, json, () => [
    ['file', path],
    ['kind', `cuckoo filter, version ${info.version}`],
    ['capacity', `${n(shape.capacity)}${shape.growth === 0 ? ' (fixed)' : `, growing by ${shape.growth}`}`],
    ['false-positive rate', `at most ${shape.falsePositiveRate} (members' bounds sum to ${info.falsePositiveBound.toExponential(4)})`],
    ['bucket size', `${shape.bucketSize} fingerprints`],
    ['seed', info.seed],
    ['added count', `${n(info.addedCount)} fingerprints in ${n(slots)} slots`],
    ['size on disk', `${n(cuckoo.size)} bytes`],
    ...list.map((m, j): [string, string] => [
      `member ${j}`,
      `${n(m.buckets)} buckets of ${m.fingerprintBits}-bit fingerprints, ${n(m.addedCount)} held (load ${m.load.toFixed(4)}), capacity ${n(m.capacity)}, rate <= ${m.falsePositiveRate.toExponential(3)}`,
    ]),
  ]);
}
