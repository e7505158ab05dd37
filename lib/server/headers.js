'use strict';
// node:http's rules for a request's `headers` object: names lowercased;
// a repeated header is joined with ', ' (`cookie` with '; '), except
// `set-cookie`, collected into an array, and the headers that may appear
// once, whose first value wins (joined with ', ' instead under
// joinDuplicateHeaders). Header names that are spelled in their usual case
// or in lowercase are looked up without lowercasing them.

const FIRST_WINS = 0;
const JOIN_COMMA = 1;
const JOIN_SEMICOLON = 2;
const ARRAY = 3;

// lowercase name -> how duplicates merge (any other name: JOIN_COMMA)
const MERGE = new Map();
for (const name of ['age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from',
  'host', 'if-modified-since', 'if-unmodified-since', 'last-modified', 'location', 'max-forwards',
  'proxy-authorization', 'referer', 'retry-after', 'server', 'user-agent']) MERGE.set(name, FIRST_WINS);
MERGE.set('cookie', JOIN_SEMICOLON);
MERGE.set('set-cookie', ARRAY);

// Spelling as received -> lowercase, for the usual spellings of common
// headers (saves a toLowerCase() per pair).
const LOWER = new Map();
for (const name of ['Host', 'User-Agent', 'Accept', 'Accept-Encoding', 'Accept-Language', 'Connection',
  'Content-Type', 'Content-Length', 'Cookie', 'Referer', 'Origin', 'Cache-Control', 'Authorization',
  'Transfer-Encoding', 'Upgrade', 'Expect', 'If-None-Match', 'If-Modified-Since', 'Set-Cookie', 'Date',
  'X-Forwarded-For', 'X-Forwarded-Proto', 'X-Forwarded-Host', 'Pragma', 'Priority', 'Sec-Fetch-Site',
  'Sec-Fetch-Mode', 'Sec-Fetch-Dest', 'Sec-Fetch-User', 'Upgrade-Insecure-Requests', 'DNT', 'TE']) {
  LOWER.set(name, name.toLowerCase());
  LOWER.set(name.toLowerCase(), name.toLowerCase());
}

function lowerName(name) {
  const known = LOWER.get(name);
  return known !== undefined ? known : name.toLowerCase();
}

// Adds the pair (name, value) to `dest` as node:http's IncomingMessage does.
function addHeaderLine(dest, name, value, joinDuplicates) {
  const field = lowerName(name);
  const merge = MERGE.get(field);
  if (merge === undefined || merge === JOIN_COMMA) {
    if (typeof dest[field] === 'string') dest[field] += ', ' + value;
    else dest[field] = value;
  } else if (merge === JOIN_SEMICOLON) {
    if (typeof dest[field] === 'string') dest[field] += '; ' + value;
    else dest[field] = value;
  } else if (merge === ARRAY) {
    if (dest[field] !== undefined) dest[field].push(value);
    else dest[field] = [value];
  } else if (joinDuplicates) {
    if (dest[field] === undefined) dest[field] = value;
    else dest[field] += ', ' + value;
  } else if (dest[field] === undefined) {
    dest[field] = value;
  }
}

// The value of the first pair of `raw` ([name, value, ...]) named `name`,
// both in any case, or undefined.
function rawValue(raw, name) {
  const length = name.length;
  for (let i = 0; i < raw.length; i += 2) {
    const field = raw[i];
    if (field.length === length && sameName(field, name)) return raw[i + 1];
  }
  return undefined;
}

// Whether two names of one length are the same, ASCII case-insensitive.
function sameName(a, b) {
  for (let j = 0; j < a.length; j++) {
    let x = a.charCodeAt(j);
    let y = b.charCodeAt(j);
    if (x === y) continue;
    if (x >= 0x41 && x <= 0x5a) x += 0x20;
    if (y >= 0x41 && y <= 0x5a) y += 0x20;
    if (x !== y) return false;
  }
  return true;
}

module.exports = { addHeaderLine, lowerName, rawValue };
