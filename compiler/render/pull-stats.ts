/**
 * `/v1/series/:id/pull-stats`: how often each figure of a blind-box series turns up, from community
 * reports, smoothed so that a figure seen 1 time in 2 boxes does not claim a 50 % rate.
 *
 * Model (beta-binomial, empirical Bayes): figure f of tier t was pulled x times in the n boxes opened
 * in its series. The prior rate of tier t, p_t, is pooled over every series (all pulls of tier-t
 * figures / all boxes those figures could have come from), weighted as PULL_PRIOR_STRENGTH boxes. The
 * posterior is Beta(k·p_t + x, k·(1 - p_t) + n - x); we publish its mean and its 95 % equal-tailed
 * credible interval. docs/documents-lists.md shows the formula with a worked example.
 *
 * Reporter ids (PullObservationRecord.userId) are never read here, so they cannot leak.
 */
import { envelope, type Envelope } from '../../snapshots/envelope.js';
import type { FigureRarity, FigureRecord, FigureSeriesRecord, PullObservationRecord } from '../../snapshots/records.js';
import { laterOf } from './as-of.js';
import { betaQuantile } from './beta.js';
import { compareText } from './order.js';
import { compareFiguresByTier } from './series-pages.js';

/** Weight of the tier prior, in pseudo-boxes. */
export const PULL_PRIOR_STRENGTH = 20;
export const CREDIBLE_LEVEL = 0.95;
const RATE_DECIMALS = 1e6;

export interface PullStatsFigure {
  id: string;
  name: string;
  rarity: FigureRarity | null;
  observed: number;
  sampleSize: number;
  rawRate: number | null;
  smoothedRate: number;
  credibleInterval: { level: number; low: number; high: number };
  prior: { rate: number; strength: number };
}

export interface PullStats {
  series: { id: string; name: string };
  reports: number;
  boxesOpened: number;
  method: 'beta-binomial';
  prior: { strength: number };
  figures: PullStatsFigure[];
}

/** Tally of the reports: boxes and reports per series, pulls per figure (within its own series). */
export interface PullTally {
  boxesBySeries: Map<string, number>;
  reportsBySeries: Map<string, number>;
  pullsByFigure: Map<string, number>;
  /** Latest observedAt of any report: the pooled priors make every series depend on all reports. */
  latestObservedAt: string | null;
}

/** Tier → prior rate p_t, or null when no box anywhere could have held a figure of that tier. */
export type PullPriors = Map<FigureRarity, number | null>;

const round6 = (v: number) => Math.round(v * RATE_DECIMALS) / RATE_DECIMALS;

/**
 * One pass over the reports. A pull of a figure that is not in the report's series (or not in the
 * catalog) is ignored: it cannot be a pull from that series' boxes.
 */
export function tallyPulls(observations: Iterable<PullObservationRecord>, figures: Iterable<FigureRecord>): PullTally {
  const seriesOf = new Map<string, string>();
  for (const f of figures) seriesOf.set(f.id, f.seriesId);
  const tally: PullTally = { boxesBySeries: new Map(), reportsBySeries: new Map(), pullsByFigure: new Map(), latestObservedAt: null };
  for (const obs of observations) {
    tally.boxesBySeries.set(obs.seriesId, (tally.boxesBySeries.get(obs.seriesId) ?? 0) + obs.boxes);
    tally.reportsBySeries.set(obs.seriesId, (tally.reportsBySeries.get(obs.seriesId) ?? 0) + 1);
    tally.latestObservedAt = laterOf(tally.latestObservedAt, obs.observedAt);
    for (const figureId of Object.keys(obs.pulls)) {
      if (seriesOf.get(figureId) !== obs.seriesId) continue;
      tally.pullsByFigure.set(figureId, (tally.pullsByFigure.get(figureId) ?? 0) + obs.pulls[figureId]);
    }
  }
  return tally;
}

/** p_t = Σ x_f / Σ n_f over every figure f of tier t in every series. */
export function priorsFromTally(tally: PullTally, figures: Iterable<FigureRecord>): PullPriors {
  const pulled = new Map<FigureRarity, number>();
  const opened = new Map<FigureRarity, number>();
  for (const f of figures) {
    // A figure without a tier shares no pool with others: it falls back to the uniform prior.
    if (f.rarity === null) continue;
    pulled.set(f.rarity, (pulled.get(f.rarity) ?? 0) + (tally.pullsByFigure.get(f.id) ?? 0));
    opened.set(f.rarity, (opened.get(f.rarity) ?? 0) + (tally.boxesBySeries.get(f.seriesId) ?? 0));
  }
  const priors: PullPriors = new Map();
  for (const [tier, n] of opened) priors.set(tier, n > 0 ? pulled.get(tier)! / n : null);
  return priors;
}

export function computePullPriors(observations: Iterable<PullObservationRecord>, figures: FigureRecord[]): PullPriors {
  return priorsFromTally(tallyPulls(observations, figures), figures);
}

/**
 * Posterior mean and equal-tailed interval of Beta(a, b). A shape of 0 happens when a tier's pooled
 * rate is exactly 0 or 1 and the figure's own counts agree; Beta(0, b) is then the point mass at 0
 * (and Beta(a, 0) at 1), so the interval collapses to that point instead of throwing.
 */
export function posterior(a: number, b: number): { mean: number; low: number; high: number } {
  if (a <= 0) return { mean: 0, low: 0, high: 0 };
  if (b <= 0) return { mean: 1, low: 1, high: 1 };
  const tail = (1 - CREDIBLE_LEVEL) / 2;
  return { mean: a / (a + b), low: betaQuantile(tail, a, b), high: betaQuantile(1 - tail, a, b) };
}

/** The pull-stats document of one series; `figures` are the figures of this series. */
export function renderPullStats(
  series: FigureSeriesRecord, figures: FigureRecord[], tally: PullTally, priors: PullPriors,
): Envelope<PullStats> {
  const k = PULL_PRIOR_STRENGTH;
  const n = tally.boxesBySeries.get(series.id) ?? 0;
  // Fallback for a tier without data anywhere: every figure of the series equally likely.
  const fallback = figures.length > 0 ? 1 / figures.length : 0;
  const rows = [...figures].sort(compareFiguresByTier).map((f): PullStatsFigure => {
    const x = tally.pullsByFigure.get(f.id) ?? 0;
    const p = (f.rarity === null ? undefined : priors.get(f.rarity)) ?? fallback;
    const post = posterior(k * p + x, k * (1 - p) + n - x);
    return {
      id: f.id,
      name: f.name,
      rarity: f.rarity,
      observed: x,
      sampleSize: n,
      rawRate: n > 0 ? round6(x / n) : null,
      smoothedRate: round6(post.mean),
      credibleInterval: { level: CREDIBLE_LEVEL, low: round6(post.low), high: round6(post.high) },
      prior: { rate: round6(p), strength: k },
    };
  });
  return envelope('pullStats', tally.latestObservedAt, {
    series: { id: series.id, name: series.name },
    reports: tally.reportsBySeries.get(series.id) ?? 0,
    boxesOpened: n,
    method: 'beta-binomial',
    prior: { strength: k },
    figures: rows,
  });
}

/**
 * The pull-stats document of one series before it is rendered: `facts` is every value
 * renderPullStats reads for it (the series' name, its figures' fields, the tallied counts, the
 * priors of its figures' tiers, the latest report), so two series with equal facts render to equal
 * bytes. A compile fingerprints the facts and skips the posterior quantiles (most of the cost)
 * when they did not change.
 */
export interface PendingPullStats {
  seriesId: string;
  facts: unknown;
  render: () => Envelope<PullStats>;
}

/** Pull-stats of every series, in series id order, not yet rendered; the reports are tallied once. */
export function pendingPullStats(
  seriesList: Iterable<FigureSeriesRecord>, figures: FigureRecord[], observations: Iterable<PullObservationRecord>,
): PendingPullStats[] {
  const tally = tallyPulls(observations, figures);
  const priors = priorsFromTally(tally, figures);
  const bySeries = new Map<string, FigureRecord[]>();
  for (const f of figures) {
    const list = bySeries.get(f.seriesId);
    if (list) list.push(f);
    else bySeries.set(f.seriesId, [f]);
  }
  return [...seriesList]
    .sort((a, b) => compareText(a.id, b.id))
    .map((s) => {
      const own = bySeries.get(s.id) ?? [];
      const facts = {
        series: [s.id, s.name],
        boxes: tally.boxesBySeries.get(s.id) ?? 0,
        reports: tally.reportsBySeries.get(s.id) ?? 0,
        latest: tally.latestObservedAt,
        figures: own.map((f) => [f.id, f.name, f.rarity, tally.pullsByFigure.get(f.id) ?? 0, f.rarity === null ? null : priors.get(f.rarity) ?? null]),
      };
      return { seriesId: s.id, facts, render: () => renderPullStats(s, own, tally, priors) };
    });
}

/** Pull-stats of every series, in series id order; the reports are tallied once. */
export function renderAllPullStats(
  seriesList: Iterable<FigureSeriesRecord>, figures: FigureRecord[], observations: Iterable<PullObservationRecord>,
): { seriesId: string; document: Envelope<PullStats> }[] {
  return pendingPullStats(seriesList, figures, observations).map((p) => ({ seriesId: p.seriesId, document: p.render() }));
}
