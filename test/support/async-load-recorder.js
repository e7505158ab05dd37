'use strict';
// Loaded by `-r` before a preload (test/server/preload-async.test.js): an
// async hook that records every async resource made from here until the
// application's first line calls global.stopAsyncLoadRecorder(), which
// returns them ({ type, made: the first frame outside node's internals }).
const { createHook } = require('node:async_hooks');

const made = [];
const hook = createHook({
  init(asyncId, type) {
    const frame = new Error().stack.split('\n').slice(1)
      .find((line) => !line.includes('(node:') && !line.includes(__filename)) || '';
    made.push({ type, made: frame.trim() });
  },
}).enable();

global.stopAsyncLoadRecorder = () => {
  hook.disable();
  return made;
};
