/**
 * The Beta distribution's CDF (the regularized incomplete beta I_x(a, b)) and its inverse, for the
 * credible intervals of pull-stats. No dependency ships these, and they are short:
 * - ln Γ by the Lanczos approximation (g = 7, 9 coefficients; relative error ~1e-15),
 * - I_x(a, b) by the continued fraction of Numerical Recipes (3rd ed., §6.4, `betacf`, modified Lentz),
 *   evaluated directly for x < (a+1)/(a+b+2) and through I_x(a,b) = 1 - I_{1-x}(b,a) otherwise, where
 *   the fraction converges fast,
 * - the quantile by bisection on [0, 1] to 1e-9 (I_x is monotone, so bisection cannot fail; ~30 steps).
 */
import { CatalogError } from '../../snapshots/errors.js';

const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(z) for z > 0. */
export function lnGamma(z: number): number {
  if (z < 0.5) {
    // Reflection keeps the series accurate near 0: Γ(z)Γ(1-z) = π / sin(πz).
    return Math.log(Math.PI / Math.sin(Math.PI * z)) - lnGamma(1 - z);
  }
  const x = z - 1;
  let sum = LANCZOS[0];
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i] / (x + i);
  const t = x + LANCZOS_G + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
}

const EPS = 1e-15;
const TINY = 1e-300;
const MAX_ITERATIONS = 10_000;

/** The continued fraction for I_x(a, b) (Numerical Recipes `betacf`, modified Lentz's method). */
function betaContinuedFraction(x: number, a: number, b: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= MAX_ITERATIONS; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) return h;
  }
  // Only reachable for shape parameters far beyond any pull count (iterations grow like sqrt(max(a, b))).
  throw new CatalogError('internal', `incomplete beta did not converge for a=${a}, b=${b}, x=${x}`);
}

function checkShape(a: number, b: number): void {
  if (!(a > 0 && b > 0 && Number.isFinite(a) && Number.isFinite(b))) {
    throw new CatalogError('internal', `Beta shape parameters must be finite and > 0 (a=${a}, b=${b})`);
  }
}

/**
 * I_x(a, b) = P(X <= x) for X ~ Beta(a, b).
 *
 * @example regularizedIncompleteBeta(0.5, 2, 3)  // 0.6875 (= 11/16)
 */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  checkShape(a, b);
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const lnFront = lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  const front = Math.exp(lnFront);
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(x, a, b)) / a;
  return 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

export const QUANTILE_TOLERANCE = 1e-9;

/**
 * The p-quantile of Beta(a, b): the x with I_x(a, b) = p, to QUANTILE_TOLERANCE.
 *
 * @example betaQuantile(0.5, 2, 3)  // 0.3857275681...
 */
export function betaQuantile(p: number, a: number, b: number): number {
  checkShape(a, b);
  if (!(p >= 0 && p <= 1)) throw new CatalogError('internal', `probability must be within [0, 1] (p=${p})`);
  if (p === 0) return 0;
  if (p === 1) return 1;
  let lo = 0;
  let hi = 1;
  while (hi - lo > QUANTILE_TOLERANCE) {
    const mid = (lo + hi) / 2;
    if (regularizedIncompleteBeta(mid, a, b) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
