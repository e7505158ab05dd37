'use strict';
// node:http's rules for a request's `headers` object: names lowercased;
// a repeated header is joined with ', ' (`cookie` with '; '), except
// `set-cookie`, collected into an array, and the headers that may appear
// once, whose first value wins (joined with ', ' instead under
// joinDuplicateHeaders). Header names that are spelled in their usual case
// or in lowercase are looked up without lowercasing them. And the value of
// one header among the raw pairs.

const { sameName } = require('../workspace');

const FIRST_WINS = 0;
const JOIN_COMMA = 1;
const JOIN_SEMICOLON = 2;
const ARRAY = 3;

// The names looked up without lowercasing them, by number (under 64, so
// that a bit per number says whether a head had it): lowercase, and how
// duplicates merge.
const FIELDS = [];
const MERGES = [];
// Spelling (as usually written, or lowercase) -> number.
const NUMBER = new Map();

function noteName(field, merge) {
  const number = FIELDS.length;
  FIELDS.push(field);
  MERGES.push(merge);
  NUMBER.set(field, number);
  NUMBER.set(field.replace(/(^|-)([a-z])/g, (_, dash, letter) => dash + letter.toUpperCase()), number);
  if (field.length <= 3) NUMBER.set(field.toUpperCase(), number);
}

for (const field of ['age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from',
  'host', 'if-modified-since', 'if-unmodified-since', 'last-modified', 'location', 'max-forwards',
  'proxy-authorization', 'referer', 'retry-after', 'server', 'user-agent']) noteName(field, FIRST_WINS);
noteName('cookie', JOIN_SEMICOLON);
noteName('set-cookie', ARRAY);
for (const field of ['accept', 'accept-encoding', 'accept-language', 'connection', 'origin', 'cache-control',
  'transfer-encoding', 'upgrade', 'expect', 'if-none-match', 'date', 'x-forwarded-for', 'x-forwarded-proto',
  'x-forwarded-host', 'pragma', 'priority', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest',
  'sec-fetch-user', 'upgrade-insecure-requests', 'dnt', 'te']) noteName(field, JOIN_COMMA);
NUMBER.set('ETag', NUMBER.get('etag'));
if (FIELDS.length > 64) throw new Error('headers.js: more than 64 names');

// out[FIELDS[number]] = value, for the first value of a name: each name's
// store a site of its own, whose key V8 knows, where one keyed store for
// every name made each a lookup of the object's next shape by name. (Its
// cases follow FIELDS, which the check below holds them to.)
function storeFirst(out, number, value) {
  switch (number) {
    case 0: out.age = value; break;
    case 1: out.authorization = value; break;
    case 2: out['content-length'] = value; break;
    case 3: out['content-type'] = value; break;
    case 4: out.etag = value; break;
    case 5: out.expires = value; break;
    case 6: out.from = value; break;
    case 7: out.host = value; break;
    case 8: out['if-modified-since'] = value; break;
    case 9: out['if-unmodified-since'] = value; break;
    case 10: out['last-modified'] = value; break;
    case 11: out.location = value; break;
    case 12: out['max-forwards'] = value; break;
    case 13: out['proxy-authorization'] = value; break;
    case 14: out.referer = value; break;
    case 15: out['retry-after'] = value; break;
    case 16: out.server = value; break;
    case 17: out['user-agent'] = value; break;
    case 18: out.cookie = value; break;
    case 19: out['set-cookie'] = value; break;
    case 20: out.accept = value; break;
    case 21: out['accept-encoding'] = value; break;
    case 22: out['accept-language'] = value; break;
    case 23: out.connection = value; break;
    case 24: out.origin = value; break;
    case 25: out['cache-control'] = value; break;
    case 26: out['transfer-encoding'] = value; break;
    case 27: out.upgrade = value; break;
    case 28: out.expect = value; break;
    case 29: out['if-none-match'] = value; break;
    case 30: out.date = value; break;
    case 31: out['x-forwarded-for'] = value; break;
    case 32: out['x-forwarded-proto'] = value; break;
    case 33: out['x-forwarded-host'] = value; break;
    case 34: out.pragma = value; break;
    case 35: out.priority = value; break;
    case 36: out['sec-fetch-site'] = value; break;
    case 37: out['sec-fetch-mode'] = value; break;
    case 38: out['sec-fetch-dest'] = value; break;
    case 39: out['sec-fetch-user'] = value; break;
    case 40: out['upgrade-insecure-requests'] = value; break;
    case 41: out.dnt = value; break;
    case 42: out.te = value; break;
  }
}

for (let number = 0; number < FIELDS.length; number++) {
  const probe = {};
  storeFirst(probe, number, number);
  if (Object.keys(probe).join() !== FIELDS[number]) throw new Error(`headers.js: storeFirst() has no case for ${FIELDS[number]}`);
}

// Heads whose names come in an order seen before (a browser's, a client
// library's, a proxy's) get their object from a function made for that
// order, an object literal: one allocation of a known shape, where storing
// the names one by one makes a new shape at each step, looked up by name.
// The functions hang at the ends of a tree of the names as they came
// (their case kept: no lowercasing to find one); a head that repeats a
// name (merged by the rules above) or names `__proto__` takes the rules'
// path, and so does every head once the tree or the functions reach their
// bounds, which keep a client that makes up names from growing them.
const SHAPES_MAX = 256;
const NODES_MAX = 4096;
// A node looks its next names up in its own fields for the first (most
// nodes have one: a client sends its names in one order), in a list for a
// few more, comparing them by identity first (well-known names are
// internalized), and in a Map once it has many.
const LIST_MAX = 8;
let shapes = 0;
let nodes = 0;

class ShapeNode {
  constructor() {
    this.firstName = null;
    this.firstNext = null;
    this.names = null;
    this.next = null;
    this.byName = null;
    // The object maker of the names up to here (shapeFor()); null: none.
    this.make = undefined;
  }

  child(name) {
    if (this.firstName === name) return this.firstNext;
    const names = this.names;
    if (names !== null) {
      for (let k = 0; k < names.length; k++) {
        if (names[k] === name) return this.next[k];
      }
    } else if (this.byName !== null) {
      return this.byName.get(name);
    }
    return undefined;
  }

  addChild(name, node) {
    if (this.firstName === null) {
      this.firstName = name;
      this.firstNext = node;
    } else if (this.byName !== null) {
      this.byName.set(name, node);
    } else if (this.names === null) {
      this.names = [name];
      this.next = [node];
    } else if (this.names.length < LIST_MAX) {
      this.names.push(name);
      this.next.push(node);
    } else {
      this.byName = new Map();
      for (let k = 0; k < this.names.length; k++) this.byName.set(this.names[k], this.next[k]);
      this.byName.set(name, node);
      this.names = this.next = null;
    }
  }
}

const shapeTree = new ShapeNode();

function shapedObject(raw, end) {
  let node = shapeTree;
  for (let i = 0; i < end; i += 2) {
    let next = node.child(raw[i]);
    if (next === undefined) {
      if (nodes >= NODES_MAX) return undefined;
      nodes++;
      next = new ShapeNode();
      node.addChild(raw[i], next);
    }
    node = next;
  }
  let make = node.make;
  if (make === undefined) make = node.make = shapeFor(raw, end);
  return make === null ? undefined : make(raw);
}

// The function that makes the object of a head with these names in this
// order, or null. (Its source holds only the names, as JSON string
// literals, and the pairs' indexes.)
function shapeFor(raw, end) {
  if (shapes >= SHAPES_MAX) return null;
  const fields = [];
  for (let i = 0; i < end; i += 2) {
    const field = raw[i].toLowerCase();
    if (field === '__proto__' || fields.includes(field)) return null;
    fields.push(field);
  }
  shapes++;
  const entries = fields.map((field, k) => {
    const value = `r[${2 * k + 1}]`;
    return `${JSON.stringify(field)}: ${MERGES[NUMBER.get(field)] === ARRAY ? `[${value}]` : value}`;
  });
  return new Function('r', `return { ${entries.join(', ')} };`);
}

// The `headers` object of pairs raw[0, end) ([name, value, ...]), as
// node:http's IncomingMessage makes it. (Whether a head already had one of
// the names above is a bit here, not a look into the object.)
function headersObject(raw, end, joinDuplicates) {
  const shaped = shapedObject(raw, end);
  if (shaped !== undefined) return shaped;
  const out = {};
  let seenLow = 0;
  let seenHigh = 0;
  for (let i = 0; i < end; i += 2) {
    const value = raw[i + 1];
    let number = NUMBER.get(raw[i]);
    let field;
    if (number === undefined) {
      field = raw[i].toLowerCase();
      number = NUMBER.get(field);
      if (number === undefined) {
        // (Any other name: joined with ', '.)
        const before = out[field];
        out[field] = typeof before === 'string' ? before + ', ' + value : value;
        continue;
      }
    }
    const bit = 1 << (number & 31);
    if (number < 32 ? (seenLow & bit) === 0 : (seenHigh & bit) === 0) {
      if (number < 32) seenLow |= bit;
      else seenHigh |= bit;
      storeFirst(out, number, MERGES[number] === ARRAY ? [value] : value);
      continue;
    }
    field = FIELDS[number];
    switch (MERGES[number]) {
      case JOIN_COMMA:
        out[field] += ', ' + value;
        break;
      case JOIN_SEMICOLON:
        out[field] += '; ' + value;
        break;
      case ARRAY:
        out[field].push(value);
        break;
      default:
        if (joinDuplicates) out[field] += ', ' + value;
    }
  }
  return out;
}

// The value of the first pair of `raw` ([name, value, ...]) named `name`,
// both in any case, or undefined. (A pair is compared only when its length
// and its first letter, in any case, are those of `name`: most names of a
// head differ there.)
function rawValue(raw, name) {
  const length = name.length;
  const first = name.charCodeAt(0) | 0x20;
  for (let i = 0; i < raw.length; i += 2) {
    const field = raw[i];
    if (field.length === length && (field.charCodeAt(0) | 0x20) === first && (field === name || sameName(field, 0, name))) {
      return raw[i + 1];
    }
  }
  return undefined;
}

module.exports = { headersObject, rawValue };
