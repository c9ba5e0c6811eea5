import { describe, expect, it } from 'vitest';
import { betaQuantile, lnGamma, regularizedIncompleteBeta } from '../../../compiler/render/beta.js';
import { numericCdf, numericQuantile } from './beta-numeric.js';

// I_x(2, 3) in closed form: P(at least 2 successes in 4 Bernoulli(x) trials).
const cdf23 = (x: number) => 6 * x ** 2 * (1 - x) ** 2 + 4 * x ** 3 * (1 - x) + x ** 4;

describe('lnGamma', () => {
  it('when z is an integer then Γ(z) = (z-1)!', () => {
    expect(Math.exp(lnGamma(1))).toBeCloseTo(1, 12);
    expect(Math.exp(lnGamma(5))).toBeCloseTo(24, 9);
    expect(lnGamma(21)).toBeCloseTo(Math.log(2432902008176640000), 9);
  });

  it('when z is 1/2 then Γ(z) = √π', () => {
    expect(Math.exp(lnGamma(0.5))).toBeCloseTo(Math.sqrt(Math.PI), 12);
  });
});

describe('regularizedIncompleteBeta', () => {
  it('when a=2, b=3 then it matches the closed form, including I_0.5 = 11/16', () => {
    expect(regularizedIncompleteBeta(0.5, 2, 3)).toBeCloseTo(11 / 16, 12);
    for (const x of [0.01, 0.1, 0.25, 0.4, 0.6, 0.75, 0.9, 0.99]) {
      expect(regularizedIncompleteBeta(x, 2, 3)).toBeCloseTo(cdf23(x), 12);
    }
  });

  it('when the shapes are not integers then it matches numeric integration of the density', () => {
    for (const [a, b] of [[2.5, 7.3], [1, 1], [30.5, 12.25], [1.5, 40]]) {
      for (const x of [0.05, 0.2, 0.5, 0.7, 0.95]) {
        expect(regularizedIncompleteBeta(x, a, b)).toBeCloseTo(numericCdf(x, a, b), 8);
      }
    }
  });

  it('when x is at or beyond the ends then it is 0 or 1, and it is symmetric: I_x(a,b) = 1 - I_(1-x)(b,a)', () => {
    expect(regularizedIncompleteBeta(0, 2, 3)).toBe(0);
    expect(regularizedIncompleteBeta(1, 2, 3)).toBe(1);
    expect(regularizedIncompleteBeta(0.3, 4.2, 9.1)).toBeCloseTo(1 - regularizedIncompleteBeta(0.7, 9.1, 4.2), 13);
  });

  it('when the shapes are large (thousands of boxes) then it still converges', () => {
    // Beta(500, 4500) has mean 0.1 and sd ~0.00424: the mean is close to the median.
    expect(regularizedIncompleteBeta(0.1, 500, 4500)).toBeGreaterThan(0.48);
    expect(regularizedIncompleteBeta(0.1, 500, 4500)).toBeLessThan(0.52);
  });

  it('when a shape is not positive then it throws', () => {
    expect(() => regularizedIncompleteBeta(0.5, 0, 3)).toThrow(/shape/);
  });
});

describe('betaQuantile', () => {
  it('when a=2, b=3 then the median solves the closed form (0.3857275681...)', () => {
    const median = betaQuantile(0.5, 2, 3);
    expect(median).toBeCloseTo(0.385727568, 8);
    expect(cdf23(median)).toBeCloseTo(0.5, 8);
  });

  it('when inverted then I at the quantile gives back p', () => {
    for (const [a, b] of [[2, 3], [2.5, 37.5], [20, 20], [0.5, 0.5], [10.5, 400]]) {
      for (const p of [0.025, 0.5, 0.975]) {
        const q = betaQuantile(p, a, b);
        expect(Math.abs(regularizedIncompleteBeta(q, a, b) - p)).toBeLessThan(1e-7);
      }
    }
  });

  it('when compared with quantiles of the numerically integrated density then they agree to 1e-6', () => {
    for (const [a, b] of [[2, 3], [2.5, 37.5], [18, 22]]) {
      for (const p of [0.025, 0.975]) {
        expect(Math.abs(betaQuantile(p, a, b) - numericQuantile(p, a, b))).toBeLessThan(1e-6);
      }
    }
  });

  it('when p is 0 or 1 then the quantile is the end of the support', () => {
    expect(betaQuantile(0, 2, 3)).toBe(0);
    expect(betaQuantile(1, 2, 3)).toBe(1);
  });
});
