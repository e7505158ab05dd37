'use strict';
// The event emitter state of a request or a response, made when first used.
// EventEmitter's constructor gives every instance a listener table and a
// few more fields, stored through code every emitter of the process shares
// (megamorphic stores); most requests and responses never get a listener.
// node:events makes the table itself on the first listener, and emit(),
// listenerCount() and removeListener() read a missing one as empty, so an
// instance only needs these fields present (for a stable shape) with
// EventEmitter's values for "none yet": the rest (captureRejections, the
// listener limit) it reads from EventEmitter.prototype, as a constructed
// emitter that was given no options does.

function eventsOnFirstListener(emitter) {
  emitter._events = undefined;
  emitter._eventsCount = 0;
  emitter._maxListeners = undefined;
}

module.exports = { eventsOnFirstListener };
