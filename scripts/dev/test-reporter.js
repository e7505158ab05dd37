'use strict';
// The node:test reporter of `npm test` (scripts/dev/test.js), the same on
// every Node line: one line per test file as it completes (passed or not,
// seconds), each failure in full when it happens, the
// diagnostics tests print (t.diagnostic), and at the end the skipped and
// todo tests with their reasons, every failure again by name and place, and
// last the runner's own summary lines as Node's spec reporter prints them
// (`ℹ tests N`, `ℹ pass N`, `ℹ fail N`, ...), which CI reads.
// (Node 20 prints TAP when stdout is not a terminal: thousands of lines, and
// a todo test's `not ok ... # TODO` reads as a failure.)
const path = require('node:path');
const { inspect } = require('node:util');

// "file.test.js" (22 and later) or "/abs/path/file.test.js" (20): a test
// event for the file itself, as the runner reports each file it ran.
const isFile = (data) => !!data.file && path.resolve(data.name) === path.resolve(data.file);
const relative = (file) => (file ? path.relative(process.cwd(), file) : '');
const indent = (text, by) => String(text).replace(/^/gm, ' '.repeat(by));
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
// An error as inspect() prints it, without the test runner's own frames.
const shown = (error) => inspect(error && error.cause ? error.cause : error, { depth: 4 })
  .split('\n').filter((line) => !/^\s+at .*\(node:/.test(line)).join('\n');

module.exports = async function* reporter(source) {
  // file -> names by nesting: the path to a test. (A test's file is where
  // test() was called: a helper's file for tests a helper defines.)
  const names = new Map();
  const failures = [];
  const notRun = [];
  const summary = [];
  const place = (data) => `${relative(data.file)}${data.line ? `:${data.line}` : ''}`;
  const fullName = (data) => [...(names.get(data.file) || []).slice(0, data.nesting), data.name].join(' › ');

  for await (const { type, data } of source) {
    if (type === 'test:start' && !isFile(data)) {
      const list = names.get(data.file) || [];
      list[data.nesting] = data.name;
      names.set(data.file, list);
    } else if ((type === 'test:pass' || type === 'test:fail') && !isFile(data)) {
      if (data.todo !== undefined || data.skip !== undefined) {
        notRun.push(`${data.todo !== undefined ? 'todo' : 'skip'}: ${fullName(data)} (${place(data)})` +
          `${typeof (data.todo ?? data.skip) === 'string' ? ': ' + (data.todo ?? data.skip) : ''}`);
        continue;
      }
      const error = data.details && data.details.error;
      // A test whose only failure is its subtests': they are reported.
      if (type === 'test:pass' || (error && error.failureType === 'subtestsFailed')) continue;
      failures.push(`✖ ${fullName(data)} (${place(data)})`);
      yield `✖ ${fullName(data)} (${place(data)}, ${seconds(data.details.duration_ms)})\n` +
        `${indent(shown(error), 4)}\n`;
    } else if (type === 'test:fail' && isFile(data)) {
      // The file itself failed (it did not load, or its process failed).
      const error = data.details && data.details.error;
      if (!error || error.failureType !== 'subtestsFailed') {
        failures.push(`✖ ${relative(data.file)}`);
        yield `✖ ${relative(data.file)}\n${indent(shown(error), 4)}\n`;
      }
    } else if (type === 'test:complete' && isFile(data)) {
      yield `${data.details.passed ? '✔' : '✖'} ${relative(data.file)} (${seconds(data.details.duration_ms)})\n`;
    } else if (type === 'test:diagnostic') {
      if (data.file) yield `ℹ ${relative(data.file)}: ${data.message}\n`;
      else if (data.nesting === 0) summary.push(`ℹ ${data.message}\n`);
    } else if (type === 'test:stdout' || type === 'test:stderr') {
      yield data.message;
    }
  }

  if (notRun.length) yield `\n${notRun.join('\n')}\n`;
  if (failures.length) yield `\n${failures.length} failing:\n${failures.join('\n')}\n`;
  yield '\n' + summary.join('');
};
