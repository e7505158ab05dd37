'use strict';
// The message clock: when the message a parser is on began, in ms, as the
// built-in's ConnectionsList reads it (headersTimeout, requestTimeout, idle
// connections: lib/connections.js) and as its duration() reports it.
//
// The core stamps each message begin with the running node's uv_hrtime()
// (src/core/lhn_clock.h), so that no JavaScript runs per message for it;
// process.hrtime reads the same clock. Where the addon found no uv_hrtime,
// the core keeps a clock of its own, read here through the addon.

const binding = require('./native');

function hrtimeMs() {
  return Number(process.hrtime.bigint()) / 1e6;
}

// Now, on the clock the core stamps message begins with.
const nowMs = binding.clockSource === 'uv_hrtime' ? hrtimeMs : binding.nowMs;

// The begin the core stamped for the message under way in parser slot
// `slot` (0: none), as of the end of its last call.
const stampOf = binding.messageStart;

// How long ago `startMs` was (0 for no start).
function sinceMs(startMs) {
  return startMs === 0 ? 0 : nowMs() - startMs;
}

module.exports = { nowMs, stampOf, sinceMs };
