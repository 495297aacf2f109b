// The SeenFilter exercise's own solution, exactly as the exercise prints it
// ("How to solve it"), for workload (d): the `poly` scheme in wasm is
// measured against this straightforward version. Only `export` was added.

export class SeenFilter {
  constructor(m, k) {
    this.m = m;
    this.k = k;
    this.bits = new Uint8Array(m); // one byte per bit, for clarity
    this.count = 0;
  }
  positions(url) {
    let h1 = 0, h2 = 0;
    for (let i = 0; i < url.length; i++) {
      const c = url.charCodeAt(i);
      h1 = (h1 * 31 + c) % 1000000007; // stays far below 2^53
      h2 = (h2 * 37 + c) % 1000000009;
    }
    const out = [];
    for (let i = 0; i < this.k; i++) out.push((h1 + i * h2) % this.m);
    return out;
  }
  add(url) {
    for (const p of this.positions(url)) {
      if (!this.bits[p]) { this.bits[p] = 1; this.count++; } // count 0 -> 1 only
    }
  }
  mightContain(url) {
    return this.positions(url).every((p) => this.bits[p] === 1);
  }
  bitsSet() {
    return this.count;
  }
}
