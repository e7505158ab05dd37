'use strict';
// This project's own targets, per Node line, for `npm run bench -- --targets`
// (and docs/benchmarks.md): what the issues asked of each figure. A user
// comparing parsers does not need them, so the default output leaves them out.
//
// Issue 23's targets replace issue 19's where both speak of a figure (memory
// per idle connection, the cold parse, the distinct messages in the steady
// state, e2e CPU per request); what only issue 19 (or 12, or 3) asked stays.
// Issue 23 gives columns for 22, 24 and 26: an older line takes 22's, 25
// takes 24's, a newer one 26's. Its distinct-message targets are "whole" and
// "in 3 pieces"; here "in pieces" holds for every number of pieces, and the
// responses are held to the same as the requests.

const ISSUE_23 = {
  22: { idleMemory: 0.90, partialMemory: 1.00, cold: 1.9, distinctWhole: 2.4, distinctPieces: 2.2,
    e2e: {}, client: 0.95 },
  24: { idleMemory: 0.90, partialMemory: 1.00, cold: 1.8, distinctWhole: 2.2, distinctPieces: 2.0,
    e2e: { hello: 0.92, browser: 0.92, express: 0.98 }, client: 0.90 },
  26: { idleMemory: 0.90, partialMemory: 1.00, cold: 1.7, distinctWhole: 2.0, distinctPieces: 1.8,
    e2e: { browser: 0.96 }, client: 0.92 },
};
// Every e2e workload (solo rounds) of issue 23: never dearer than the built-in.
const E2E_DEFAULT = 1.00;

const atLeast = (value) => ({ atLeast: value });
const atMost = (value) => ({ atMost: value });

// The targets of the line `nodeVersion` (v24.22.3, or 24.22.3).
function targetsFor(nodeVersion) {
  const major = Number(String(nodeVersion).replace(/^v/, '').split('.')[0]);
  const column = major <= 22 ? 22 : major <= 25 ? 24 : 26;
  const t = ISSUE_23[column];
  return {
    line: column,
    idleMemory: atMost(t.idleMemory),
    partialMemory: atMost(t.partialMemory),
    cold: atLeast(t.cold),
    distinct: (frags) => atLeast(frags > 1 ? t.distinctPieces : t.distinctWhole),
    e2e: (workload) => (workload === 'net-echo' ? null : atMost(t.e2e[workload] || E2E_DEFAULT)),
    client: atMost(t.client),
    // Issue 19 (Node's bench-parser shape, fresh process, wall clock, len 4-32).
    freshParser: atLeast(1.8),
    // Issue 12 (the repeated request in 2-8 pieces, steady state).
    fragmentedSteady: atLeast(major >= 24 ? 2.5 : 2.2),
    // Issue 3 (ours in JavaScript / raw llhttp in C, len 8).
    rawFraction: atLeast(0.25),
  };
}

// "≥ 1.8×", "≤ 0.90×"; '' without a target.
function targetText(target, unit = '×') {
  if (!target) return '';
  return 'atLeast' in target ? `≥ ${target.atLeast.toFixed(1)}${unit}` : `≤ ${target.atMost.toFixed(2)}${unit}`;
}

// 'met', 'MISS', or '' without a target or a value.
function verdict(target, value) {
  if (!target || !Number.isFinite(value)) return '';
  return ('atLeast' in target ? value >= target.atLeast : value <= target.atMost) ? 'met' : 'MISS';
}

module.exports = { targetsFor, targetText, verdict };
