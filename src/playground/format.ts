// How the playground prints numbers, sizes and items.

/** Integers with thousands separators. */
export const fmt = new Intl.NumberFormat('en');

/** A rate as a percentage down to 0.1%, and in exponent form below. */
export function fmtRate(x: number): string {
  if (x === 0) return '0';
  if (x >= 0.001) return `${(x * 100).toPrecision(3)}%`;
  return x.toExponential(2);
}

/** A byte count in bytes, KiB or MiB. */
export function fmtBytes(n: number): string {
  if (n < 10_000) return `${fmt.format(Math.round(n))} bytes`;
  if (n < 10_000_000) return `${fmt.format(Math.round(n / 1024))} KiB`;
  return `${fmt.format(Math.round(n / 1048576))} MiB`;
}

/** An item in quotes, cut at 60 characters. */
export function quote(item: string): string {
  return `“${item.length > 60 ? item.slice(0, 60) + '…' : item}”`;
}
