// Counts as people read them: 8,334,675. Not toLocaleString('en-US'): its
// first call loads Intl's locale data, megabytes of resident memory that
// would dwarf everything in a `bloom dedupe --stats` run but the filter.

/** `n`, rounded to an integer, with a comma between groups of three digits. */
export function grouped(n: number): string {
  const digits = String(Math.round(Math.abs(n)));
  const text = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n < 0 && digits !== '0' ? `-${text}` : text;
}
