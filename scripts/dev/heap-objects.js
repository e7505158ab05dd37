'use strict';
// What a process's heap holds, by kind of object, from a V8 heap snapshot
// (v8.getHeapSnapshot(): a full GC, then every reachable object, and the
// native objects Node reports through its embedder graph, such as the
// built-in parser's C++ state). Used by benchmark/memory.js --breakdown: the
// difference of two snapshots divided by the connections opened between them
// is what one connection holds, object by object.
//
// A kind is the snapshot's node type and, for objects, closures, arrays,
// native and hidden nodes, its name (the constructor, the function, the kind
// of elements, the native class); strings, numbers and code by type alone.

const v8 = require('node:v8');

const NAMED = new Set(['object', 'closure', 'array', 'native', 'hidden', 'synthetic', 'object shape', 'regexp']);

// Map kind → { count, bytes } of the heap as it is now.
async function heapObjects() {
  let text = '';
  for await (const chunk of v8.getHeapSnapshot()) text += chunk;
  const snapshot = JSON.parse(text);
  text = '';
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const at = { type: fields.indexOf('type'), name: fields.indexOf('name'), size: fields.indexOf('self_size') };
  const { nodes, strings } = snapshot;
  const out = new Map();
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + at.type]];
    const kind = NAMED.has(type) ? `${type} ${strings[nodes[i + at.name]].slice(0, 60)}` : type;
    const entry = out.get(kind) || { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += nodes[i + at.size];
    out.set(kind, entry);
  }
  return Object.fromEntries(out);
}

// (after - before) / per, by kind: { kind: { count, bytes } }.
function difference(before, after, per) {
  const out = {};
  for (const kind of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[kind] || { count: 0, bytes: 0 };
    const b = after[kind] || { count: 0, bytes: 0 };
    out[kind] = { count: (b.count - a.count) / per, bytes: (b.bytes - a.bytes) / per };
  }
  return out;
}

module.exports = { heapObjects, difference };
