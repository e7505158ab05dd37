'use strict';
// The statistics of the benchmark reports, each figure's interval computed
// here and nowhere else:
//   compare(a, b)          fresh-process samples: Welch's t-test and the interval
//                          of a ratio of means, in the manner of Node's
//                          benchmark/compare.R (mean(new)/mean(old) - 1 with
//                          t.test's interval divided by mean(old), stars for
//                          p < 0.05, 0.01, 0.001);
//   geoMeanInterval(r)     paired ratios (paired.js, cold.js): the geometric
//                          mean with its t-interval on the log ratios;
//   ratioStats(r)          e2e rounds (server.js, client.js): the median with its
//                          distribution-free interval, and the geometric mean.

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function mean(values) {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

function variance(values) {
  const m = mean(values);
  let sum = 0;
  for (const v of values) sum += (v - m) * (v - m);
  return sum / (values.length - 1);
}

// ln Γ(x), Lanczos approximation (g = 7, n = 9).
const LANCZOS = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
  1.5056327351493116e-7];
function lgamma(x) {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lgamma(1 - x);
  x -= 1;
  let a = LANCZOS[0];
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

// Continued fraction of the incomplete beta function (Numerical Recipes).
function betacf(a, b, x) {
  const FPMIN = 1e-300;
  let qab = a + b, qap = a + 1, qam = a - 1;
  let c = 1, d = 1 - (qab * x) / qap;
  if (Math.abs(d) < FPMIN) d = FPMIN;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d; if (Math.abs(d) < FPMIN) d = FPMIN;
    c = 1 + aa / c; if (Math.abs(c) < FPMIN) c = FPMIN;
    d = 1 / d; h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d; if (Math.abs(d) < FPMIN) d = FPMIN;
    c = 1 + aa / c; if (Math.abs(c) < FPMIN) c = FPMIN;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 3e-14) break;
  }
  return h;
}

// Regularized incomplete beta I_x(a, b).
function ibeta(x, a, b) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const bt = Math.exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  if (x < (a + 1) / (a + b + 2)) return (bt * betacf(a, b, x)) / a;
  return 1 - (bt * betacf(b, a, 1 - x)) / b;
}

// P(|T| > |t|) for Student's t with df degrees of freedom.
function tTwoSided(t, df) {
  return ibeta(df / (df + t * t), df / 2, 0.5);
}

// The quantile q with P(T <= q) = p, by bisection (p > 0.5).
function tQuantile(p, df) {
  let lo = 0, hi = 1000;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    const upper = tTwoSided(mid, df) / 2;
    if (1 - upper < p) lo = mid; else hi = mid;
  }
  return (lo + hi) / 2;
}

function stars(p) {
  if (!(p < 0.05)) return '';
  if (p < 0.001) return '***';
  if (p < 0.01) return '**';
  return '*';
}

// Compares samples b (new) against a (old): medians, ratio of medians,
// ratio of means with the 95 % interval from Welch's t-test, p and stars.
function compare(a, b) {
  const out = {
    n: [a.length, b.length],
    medianA: median(a),
    medianB: median(b),
    ratio: median(b) / median(a),
    meanRatio: mean(b) / mean(a),
    ci: null,
    p: null,
    stars: '',
  };
  if (a.length < 2 || b.length < 2) return out;
  const ma = mean(a), mb = mean(b);
  const va = variance(a) / a.length, vb = variance(b) / b.length;
  const se = Math.sqrt(va + vb);
  if (se === 0) {
    out.p = mb === ma ? 1 : 0;
    out.ci = [mb / ma, mb / ma];
    out.stars = stars(out.p);
    return out;
  }
  const df = (va + vb) ** 2 / (va ** 2 / (a.length - 1) + vb ** 2 / (b.length - 1));
  const t = (mb - ma) / se;
  out.p = tTwoSided(t, df);
  const q = tQuantile(0.975, df);
  out.ci = [1 + (mb - ma - q * se) / ma, 1 + (mb - ma + q * se) / ma];
  out.stars = stars(out.p);
  out.df = df;
  out.t = t;
  return out;
}

// Ratios of paired samples (one per pair of batches or rounds): their
// geometric mean with its 95% interval (t on the log ratios) and the p of
// "no difference" (log ratio 0). Interval and p are null below 2 ratios.
function geoMeanInterval(ratios) {
  const logs = ratios.map(Math.log);
  const m = mean(logs);
  const out = { geoMean: Math.exp(m), ci: null, p: null, stars: '' };
  if (logs.length < 2) return out;
  const se = Math.sqrt(variance(logs) / logs.length);
  const q = tQuantile(0.975, logs.length - 1);
  out.ci = [Math.exp(m - q * se), Math.exp(m + q * se)];
  out.p = se > 0 ? tTwoSided(m / se, logs.length - 1) : (m === 0 ? 1 : 0);
  out.stars = stars(out.p);
  return out;
}

// P(B <= k) for B ~ Binomial(n, 1/2).
function binomialCdf(k, n) {
  let sum = 0;
  let term = 0.5 ** n; // C(n, 0) / 2^n
  for (let i = 0; i <= k; i++) {
    sum += term;
    term = (term * (n - i)) / (i + 1);
  }
  return sum;
}

// Distribution-free interval of the median: (x(k), x(n+1-k)), the narrowest
// whose coverage 1 - 2 P(B(n, 1/2) < k) is at least `level`. Null below 6 values.
function medianInterval(values, level = 0.95) {
  const s = [...values].sort((a, b) => a - b);
  const n = s.length;
  let best = null;
  for (let k = 1; k <= n / 2; k++) {
    const coverage = 1 - 2 * binomialCdf(k - 1, n);
    if (coverage < level) break;
    best = { ci: [s[k - 1], s[n - k]], coverage };
  }
  return best;
}

// Ratios of rounds: the median with its distribution-free interval (robust to
// one disturbed round), and beside it the geometric mean with its t-interval.
function ratioStats(ratios) {
  const g = geoMeanInterval(ratios);
  const mi = medianInterval(ratios);
  return { n: ratios.length, median: median(ratios), ci: mi ? mi.ci : null, coverage: mi ? mi.coverage : null,
    geoMean: g.geoMean, geoCi: g.ci, p: g.p, stars: g.stars };
}

module.exports = { median, mean, variance, tTwoSided, tQuantile, stars, compare, geoMeanInterval, medianInterval, ratioStats };
