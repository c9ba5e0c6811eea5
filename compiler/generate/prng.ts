/**
 * The generator's only source of randomness: sfc32 (Chris Doty-Humphrey's Small Fast Counter, as in
 * PractRand) seeded from a string hash. Every stream is named (`rngFor(seed, 'card', code, 12)`), so a
 * card, a price series or a user always draws from its own stream: changing how one kind is made never
 * shifts the numbers of another kind, and any record can be rebuilt from its index alone (that is what
 * keeps memory bounded: binders and activity point at cards without keeping the cards).
 *
 * @example
 *   const rng = rngFor(1, 'user', 42);
 *   rng.int(1, 6);      // same value on every run with seed 1
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(a: number, b: number, c: number, d: number) {
    this.a = a | 0;
    this.b = b | 0;
    this.c = c | 0;
    this.d = d | 0;
    // Hash-derived states are already well mixed; a few rounds more decorrelate close labels.
    for (let i = 0; i < 12; i += 1) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Standard normal (Box-Muller; one value per call, the cheap path is not needed here). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** exp(N(mu, sigma)): prices, watchers and other skewed positive quantities. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** Index in [0, n) skewed toward 0: P(index < k) = (k/n)^(1/power). power 1 is uniform. */
  skewed(n: number, power: number): number {
    return Math.min(n - 1, Math.floor(n * Math.pow(this.next(), power)));
  }
}

/** A value drawn from weighted entries: `weighted(rng, [['common', 60], ['rare', 10]])`. */
export function weighted<T>(rng: Rng, table: readonly (readonly [T, number])[]): T {
  let total = 0;
  for (const [, w] of table) total += w;
  let x = rng.next() * total;
  for (const [value, w] of table) {
    x -= w;
    if (x < 0) return value;
  }
  return table[table.length - 1][0];
}

/**
 * cyrb128 (bryc, public domain): a fast 128-bit string hash, used only to seed sfc32. Not
 * cryptographic; it only has to spread nearby labels ("card|x|1", "card|x|2") far apart.
 */
export function hash128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i += 1) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** The named stream `labels` of the catalog generated with `seed`. */
export function rngFor(seed: number, ...labels: (string | number)[]): Rng {
  const [a, b, c, d] = hash128(`${seed}|${labels.join('|')}`);
  return new Rng(a, b, c, d);
}

/** A fixed fraction in [0, 1) per seed and name: offsets for low-discrepancy sequences. */
export function seedFraction(seed: number, name: string): number {
  return hash128(`${seed}|${name}`)[0] / 4294967296;
}
