// An independent check of the Beta maths for the tests: the density integrated numerically
// (composite Simpson), sharing no code with compiler/render/beta.ts. Valid for a, b >= 1 (no
// endpoint singularity).
const STEPS = 20_000;

const density = (x: number, a: number, b: number) => x ** (a - 1) * (1 - x) ** (b - 1);

function simpson(f: (x: number) => number, lo: number, hi: number, steps: number): number {
  const h = (hi - lo) / steps;
  let sum = f(lo) + f(hi);
  for (let i = 1; i < steps; i++) sum += (i % 2 === 1 ? 4 : 2) * f(lo + i * h);
  return (sum * h) / 3;
}

/**
 * P(X <= x), X ~ Beta(a, b), by integrating the density and normalizing by its integral over [0, 1].
 * Substituting x = t² makes the integrand smooth at 0 when a is not an integer (x^0.5 would make
 * Simpson converge slowly).
 */
export function numericCdf(x: number, a: number, b: number): number {
  const f = (t: number) => 2 * t * density(t * t, a, b);
  return simpson(f, 0, Math.sqrt(x), STEPS) / simpson(f, 0, 1, STEPS);
}

/** The p-quantile, by bisection on the numeric CDF (to 1e-10). */
export function numericQuantile(p: number, a: number, b: number): number {
  let lo = 0;
  let hi = 1;
  while (hi - lo > 1e-10) {
    const mid = (lo + hi) / 2;
    if (numericCdf(mid, a, b) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
