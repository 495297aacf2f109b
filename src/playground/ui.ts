// The playground's elements (index.html), the form's mode, and the verdict
// line under the item form.

/** The element with id `id`; throws when index.html lacks it. */
export function $<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`playground: #${id} is missing from index.html`);
  return el as T;
}

/** The page's elements, looked up once. */
export const ui = {
  paramsForm: $<HTMLFormElement>('params-form'),
  mkFields: $<HTMLDivElement>('mk-fields'),
  npFields: $<HTMLDivElement>('np-fields'),
  bits: $<HTMLInputElement>('bits'),
  hashes: $<HTMLInputElement>('hashes'),
  capacity: $<HTMLInputElement>('capacity'),
  rate: $<HTMLInputElement>('rate'),
  scheme: $<HTMLSelectElement>('scheme'),
  paramsError: $<HTMLParagraphElement>('params-error'),
  sizeSummary: $<HTMLParagraphElement>('size-summary'),
  itemForm: $<HTMLFormElement>('item-form'),
  item: $<HTMLInputElement>('item'),
  check: $<HTMLButtonElement>('check'),
  verdict: $<HTMLParagraphElement>('verdict'),
  step: $<HTMLButtonElement>('step'),
  stepStatus: $<HTMLParagraphElement>('step-status'),
  bulk: $<HTMLButtonElement>('bulk'),
  clear: $<HTMLButtonElement>('clear'),
  log: $<HTMLOListElement>('log'),
  statSet: $<HTMLElement>('stat-set'),
  statFill: $<HTMLElement>('stat-fill'),
  statAdded: $<HTMLElement>('stat-added'),
  statEstimate: $<HTMLElement>('stat-estimate'),
  statRate: $<HTMLElement>('stat-rate'),
  gridCaption: $<HTMLParagraphElement>('grid-caption'),
  grid: $<HTMLDivElement>('grid'),
  chart: $<HTMLCanvasElement>('chart'),
  chartSummary: $<HTMLParagraphElement>('chart-summary'),
  ratesNote: $<HTMLParagraphElement>('rates-note'),
};

/** Shows a verdict: its token (NO, MAYBE, ADDED), a false-positive mark when it is one, and the explanation. */
export function setVerdict(kind: 'maybe' | 'no' | 'added', token: string, text: string, falsePositive = false): void {
  ui.verdict.className = `verdict ${kind === 'added' ? '' : kind}`;
  const tokenEl = document.createElement('span');
  tokenEl.className = 'token';
  tokenEl.textContent = token;
  const parts: Node[] = [tokenEl];
  if (falsePositive) {
    const fp = document.createElement('span');
    fp.className = 'fp';
    fp.textContent = 'false positive';
    parts.push(fp);
  }
  parts.push(document.createTextNode(` ${text}`));
  ui.verdict.replaceChildren(...parts);
}

/** Whether the form sizes by m and k, or by n and p. */
export function mode(): 'mk' | 'np' {
  const checked = ui.paramsForm.querySelector<HTMLInputElement>('input[name=mode]:checked');
  return checked?.value === 'np' ? 'np' : 'mk';
}

/** Shows the fields of the form's mode and hides the others. */
export function showMode(): void {
  const np = mode() === 'np';
  ui.npFields.hidden = !np;
  ui.mkFields.hidden = np;
}
