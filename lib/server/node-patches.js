'use strict';
// What a tool that patches node:http (an APM: OpenTelemetry's
// instrumentation-http wraps Server.prototype.emit, dd-trace wraps
// ServerResponse.prototype.emit to close its span at 'finish') put on
// node:http's prototypes in place of a method that node:http's objects and
// this server's both inherit (EventEmitter's emit, Stream's pipe): such a
// wrapper calls the inherited method it replaced, which this server's
// objects inherit too, so it goes on this server's prototype as it is.
// Methods each side defines itself (writeHead, end, close...) stay each
// one's own: a wrapper of node:http's would call node:http's method on this
// server's object. The server preload takes them when it installs and again
// as each server is made (./preload.js), so that a tool loaded after the
// preload but before the application makes its servers counts as one loaded
// before it.

// Ours' prototype -> (key -> the value taken for it), to take a key again
// when the tool wraps it once more.
const taken = new WeakMap();

function chainOf(prototype) {
  const chain = [];
  for (let p = prototype; p !== null; p = Object.getPrototypeOf(p)) chain.push(p);
  return chain;
}

function ownerOf(prototype, key) {
  for (let p = prototype; p !== null; p = Object.getPrototypeOf(p)) if (Object.hasOwn(p, key)) return p;
  return null;
}

// Puts on `Ours.prototype` what `NodeClass.prototype`'s own chain (below the
// prototypes both inherit) holds for a key that ours inherits from one of
// those shared prototypes, or that was taken so before.
function takeNodePatches(NodeClass, Ours) {
  const ours = Ours.prototype;
  const oursChain = chainOf(ours);
  const shared = new Set(chainOf(NodeClass.prototype).filter((p) => oursChain.includes(p)));
  let takenHere = taken.get(ours);
  if (takenHere === undefined) {
    takenHere = new Map();
    taken.set(ours, takenHere);
  }
  const seen = new Set(['constructor']);
  for (let p = NodeClass.prototype; p !== null && !shared.has(p); p = Object.getPrototypeOf(p)) {
    for (const key of Reflect.ownKeys(p)) {
      if (seen.has(key)) continue;
      seen.add(key);
      const owner = ownerOf(ours, key);
      const wasTaken = owner === ours && takenHere.has(key) && takenHere.get(key) === ours[key];
      if (owner === null || !(shared.has(owner) || wasTaken)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(p, key);
      Object.defineProperty(ours, key, descriptor);
      takenHere.set(key, ours[key]);
    }
  }
}

module.exports = { takeNodePatches };
