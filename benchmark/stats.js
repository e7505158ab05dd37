'use strict';
// Small statistics for the benchmark reports: medians, Welch's t-test and the
// confidence interval of a ratio, in the manner of Node's benchmark/compare.R
// (which reports mean(new)/mean(old) - 1 with t.test's interval divided by
// mean(old), and stars for p < 0.05, 0.01, 0.001).

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

module.exports = { median, mean, variance, tTwoSided, tQuantile, stars, compare };
