'use strict';
// The table a framework's own suite prints after running each test file on
// node:http and on llhttp-napi/server (framework-suite.js):
// per file pass/fail on both, the totals, and the tests that fail on this
// server only. `results` maps a file to { builtin, ours }, each
// { pass, fail, failed: [names], timedOut }.
function printComparison(files, results, width) {
  const totals = { builtin: { pass: 0, fail: 0 }, ours: { pass: 0, fail: 0 } };
  const regressions = [];
  console.log('file'.padEnd(width), 'node:http pass/fail', ' llhttp-napi/server pass/fail');
  for (const file of files) {
    const r = results.get(file);
    for (const side of ['builtin', 'ours']) {
      totals[side].pass += r[side].pass;
      totals[side].fail += r[side].fail;
    }
    const mark = r.ours.fail > r.builtin.fail || r.ours.pass < r.builtin.pass ? '  <--' : '';
    const show = (side) => `${r[side].pass}/${r[side].fail}${r[side].timedOut ? ' (timed out)' : ''}`;
    console.log(file.padEnd(width), show('builtin').padStart(19), show('ours').padStart(29), mark);
    const before = new Set(r.builtin.failed);
    for (const name of r.ours.failed) if (!before.has(name)) regressions.push(`${file}: ${name}`);
    if (r.ours.timedOut && !r.builtin.timedOut) regressions.push(`${file}: timed out`);
  }
  console.log('total'.padEnd(width), `${totals.builtin.pass}/${totals.builtin.fail}`.padStart(19),
    `${totals.ours.pass}/${totals.ours.fail}`.padStart(29));
  console.log(`\nfailing on llhttp-napi/server only (${regressions.length}):`);
  for (const line of regressions) console.log(`  ${line}`);
}

module.exports = { printComparison };
