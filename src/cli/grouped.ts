// Counts as people read them: 8,334,675. Not toLocaleString('en-US'): its
// first call loads Intl's locale data, measured at 8 MiB more peak RSS for
// `bloom dedupe --stats` on 10^7 lines (82 against 74 MiB), which would
// then dwarf everything but the filter.

/** `n`, rounded to an integer, with a comma between groups of three digits. */
export function grouped(n: number): string {
  const digits = String(Math.round(Math.abs(n)));
  const text = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n < 0 && digits !== '0' ? `-${text}` : text;
}
