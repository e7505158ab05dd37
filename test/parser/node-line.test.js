'use strict';
// lib/node-line.js takes the built-in parser's behaviours from a table by
// release (measuring them would make async resources while a preload
// loads): here each is measured on the running line's built-in and the
// table must agree, so that it cannot go stale on any line the tests run on.
const test = require('node:test');
const assert = require('node:assert');
const line = require('../../lib/node-line');
const measureBuiltin = require('../support/builtin-line-behaviour');

test(`the table of lib/node-line.js agrees with the built-in parser of ${process.version}`, () => {
  const measured = measureBuiltin();
  const table = {};
  for (const name of Object.keys(measured)) table[name] = line[name];
  assert.deepStrictEqual(table, measured);
});
