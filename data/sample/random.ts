/**
 * A small seeded PRNG (sfc32) so that the same `--seed` always gives the same snapshot on every
 * machine and Node version; Math.random cannot be seeded.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string | number) {
    // cyrb128-style mixing of the seed text into four 32-bit words.
    const text = String(seed);
    let h1 = 1779033703, h2 = 3144134277, h3 = 1013904242, h4 = 2773480762;
    for (let i = 0; i < text.length; i++) {
      const k = text.charCodeAt(i);
      h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
      h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
      h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
      h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
    }
    this.a = h1 >>> 0;
    this.b = h2 >>> 0;
    this.c = h3 >>> 0;
    this.d = h4 >>> 0;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** A discrete Pareto draw >= 1, capped: most draws are 1-3, a few reach the cap. */
  pareto(alpha: number, cap: number): number {
    const u = 1 - this.next();
    return Math.min(cap, Math.floor(Math.pow(u, -1 / alpha)));
  }

  /** A child generator, so adding draws in one part does not shift every other part. */
  fork(label: string): Random {
    return new Random(`${this.int(2 ** 31)}:${label}`);
  }
}

/** Picks indexes with probability proportional to `weights`, by binary search over the sums. */
export class WeightedPicker {
  private readonly sums: Float64Array;
  private readonly total: number;

  constructor(weights: ArrayLike<number>) {
    this.sums = new Float64Array(weights.length);
    let total = 0;
    for (let i = 0; i < weights.length; i++) {
      total += weights[i]!;
      this.sums[i] = total;
    }
    this.total = total;
  }

  pick(random: Random): number {
    const x = random.next() * this.total;
    let lo = 0;
    let hi = this.sums.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.sums[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

/** Zipf-like weights 1/(rank+1)^s: a few very popular items and a long tail. */
export function getZipfWeights(n: number, s: number): Float64Array {
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) w[i] = 1 / Math.pow(i + 1, s);
  return w;
}
