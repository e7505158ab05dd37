'use strict';
// The message clock: when the message a parser is on began, in ms, as the
// built-in's ConnectionsList reads it (headersTimeout, requestTimeout, idle
// connections: ./connections.js, lib/server/) and as its duration() reports
// it.
//
// The core stamps each message begin with the running node's uv_hrtime()
// (src/core/lhn_clock.h), so that no JavaScript runs per message for it;
// process.hrtime reads the same clock. Where the addon found no uv_hrtime,
// the core keeps a clock of its own, read here through the seam.

const seam = require('./workspace');

function hrtimeMs() {
  return Number(process.hrtime.bigint()) / 1e6;
}

// Now, on the clock the core stamps message begins with.
const nowMs = seam.clockSource === 'uv_hrtime' ? hrtimeMs : seam.coreNowMs;

// How long ago `startMs` was (0 for no start).
function sinceMs(startMs) {
  return startMs === 0 ? 0 : nowMs() - startMs;
}

// One parser's message clock: what of a message's start JavaScript knows
// besides the core's stamp (./parser.js tells it).
class MessageClock {
  constructor() {
    this.initStartMs = 0;        // the clock initialize() started for a connections list
    this.inMessage = false;      // as of the event being delivered
    this.begunSinceInit = false; // a message began since initialize()
  }

  // initialize(): the built-in starts the clock of a parser that joins a
  // connections list (`tracked`); it runs until a message begins.
  initialize(tracked) {
    this.initStartMs = tracked ? nowMs() : 0;
    this.begunSinceInit = false;
  }

  // A message's MESSAGE_BEGIN, MESSAGE_COMPLETE event is being delivered.
  begin() {
    this.inMessage = true;
    this.begunSinceInit = true;
  }

  complete() {
    this.inMessage = false;
  }

  // The begin of the message under way of parser `id` in ms (0: none).
  // During a call (`inCall`), as of the event being delivered, as the
  // built-in's is (a request handler runs before its message completes: not
  // idle for closeIdleConnections()); else as of the end of the last call
  // (none while a reset is pending, `resetPending`), or the clock
  // initialize() started while no message has begun.
  startMs(id, inCall, resetPending) {
    if (inCall) {
      if (!this.inMessage) return 0;
      const start = seam.messageStart(id);
      return start !== 0 ? start : nowMs();
    }
    const start = resetPending ? 0 : seam.messageStart(id);
    return start !== 0 ? start : this.begunSinceInit ? 0 : this.initStartMs;
  }
}

module.exports = { nowMs, sinceMs, MessageClock };
