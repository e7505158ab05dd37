'use strict';
// The head of llhttp-napi/server's response: the headers a handler sets, and
// the head made of them once (status line, the handler's lines, then the
// lines the server adds: Date, Connection, the body's framing). The base
// class of ./response.js, which sends the head and the body.

const Stream = require('node:stream');
// (node:http's test of a headers object's keys; in a for-in loop the
// compilers reduce `hasOwnProperty.call()` to a check of the object's map.)
const { hasOwnProperty } = Object.prototype;
const { validateHeaderName, validateHeaderValue, STATUS_CODES } = require('node:http');
const { checkedKey, keyOf, checkValue } = require('./header-checks');
const errors = require('./errors');
const wire = require('./wire');
const { eventsOnFirstListener } = require('./events');
const { kUniqueHeaders } = require('./seam');
const { defaultFields } = require('./default-fields');

const CRLF = '\r\n';
const SAYS_CLOSE = /(?:^|\W)close(?:$|\W)/i;
const SAYS_CHUNKED = /(?:^|\W)chunked(?:$|\W)/i;
const BAD_STATUS_CHAR = /[^\t\x20-\x7e\x80-\xff]/;
const NON_ASCII = /[^\x00-\x7f]/;

// The headers the server looks at in the handler's head (bits of _said,
// and of _removed for the ones removeHeader() keeps the server from adding).
const CONNECTION = 1;
const CONTENT_LENGTH = 2;
const TRANSFER_ENCODING = 4;
const DATE = 8;
const TRAILER = 16;
const KEEP_ALIVE = 32;
const NOTED = new Map([['connection', CONNECTION], ['content-length', CONTENT_LENGTH],
  ['transfer-encoding', TRANSFER_ENCODING], ['date', DATE], ['trailer', TRAILER], ['keep-alive', KEEP_ALIVE]]);
// The same names as usually written, and which lengths they have: a line's
// name is lowercased to look it up only when it may be one of them.
const NOTED_SPELLED = new Map();
const NOTED_LENGTHS = [];
for (const [name, bit] of NOTED) {
  const usual = name.replace(/(^|-)([a-z])/g, (_, dash, letter) => dash + letter.toUpperCase());
  NOTED_SPELLED.set(name, bit).set(usual, bit);
  NOTED_LENGTHS[name.length] = true;
}

// The bit of header `name` (any case) among NOTED, or undefined.
function notedBit(name) {
  if (NOTED_LENGTHS[name.length] !== true) return undefined;
  const bit = NOTED_SPELLED.get(name);
  return bit !== undefined ? bit : NOTED.get(keyOf(name));
}

// How the body is delimited when the handler's head names neither
// Content-Length nor Transfer-Encoding (bodyFraming() picks one):
// [line the server adds, chunked, the connection closes after it].
const NO_BODY = 0;
const UNTIL_CLOSE = 1;
const KNOWN_LENGTH = 2;
const CHUNKED = 3;
const FRAMING = [
  ['', false, false],
  ['', false, true],
  [null, false, false], // (Content-Length: the length end() was given)
  [wire.TRANSFER_ENCODING_CHUNKED, true, false],
];

function bodyFraming(res, said) {
  if (!res._hasBody) return NO_BODY;
  // (An HTTP/1.0 client that did not ask for chunks reads until the close.)
  if (!res.useChunkedEncodingByDefault) return UNTIL_CLOSE;
  if ((said & TRAILER) === 0 && (res._removed & CONTENT_LENGTH) === 0 && typeof res._contentLength === 'number') {
    return KNOWN_LENGTH;
  }
  return (res._removed & TRANSFER_ENCODING) === 0 ? CHUNKED : UNTIL_CLOSE;
}

// The line a header name and value made lately, per name (a handler gives
// the same names, and often the same values, on every answer): checked,
// what it says to the server noted, and flat, so that a head of such lines
// costs a few concatenations and little to flatten when written.
const RECENT_NAMES = 256;
const recentLines = new Map(); // name -> { value, line, bit, flat }

// node:http's rule for a Content-Disposition value (RFC 6266 filenames) in
// a head whose length is known by then: its latin1 bytes reach the wire
// although that head shares the body's utf8 write, so the value is the
// string whose utf8 bytes are those.
function isContentDisposition(name) {
  return keyOf(name) === 'content-disposition';
}

function latin1ForUtf8Write(value) {
  return NON_ASCII.test(value) ? Buffer.from(value, 'latin1').toString('utf8') : value;
}

// The table of a response's headers, lower-case name -> [name, value,
// whether the value is ASCII]: an object whose prototype has no properties
// (no name is inherited, `__proto__` is a key like any other), as
// node:http's `{ __proto__: null }` is, but not a dictionary, which V8
// makes every object without a prototype: the same names set answer after
// answer then take the same shapes, stored and read without hashing.
function HeaderTable() {}
HeaderTable.prototype = Object.create(null);

// What setHeaders() takes: anything with a Map's keys(), get() and entries.
function isHeadersOrMap(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value) &&
    typeof value.keys === 'function' && typeof value.get === 'function';
}

// (A legacy Stream whose event emitter is not constructed: see
// ./events.js.)
class OutgoingHead {
  constructor(req) {
    eventsOnFirstListener(this);
    this.statusCode = 200;
    this.statusMessage = undefined;
    this.shouldKeepAlive = true;
    // (Below HTTP/1.1, only for a client that asked for chunks.)
    this.useChunkedEncodingByDefault = (req.httpVersionMajor >= 1 && req.httpVersionMinor >= 1) ||
      wire.chunkedRequested(req);
    this.chunkedEncoding = false;
    this._outHeaders = null;        // lowercase name -> [name, value, its text is ASCII]
    this._head = null;              // the head, once made
    this._said = 0;                 // what the handler's lines said (bits above)
    this._hasBody = req.method !== 'HEAD';
    this._contentLength = null;
    this._last = false;             // the connection closes after this answer
  }

  // (As node:http's: true once the head is made, written or not.)
  get headersSent() {
    return this._head !== null;
  }

  // ---- the handler's headers ----

  setHeader(name, value) {
    if (this._head !== null) throw errors.headersSent('set');
    const key = checkedKey(name);
    const ascii = checkValue(name, value, this);
    if (this._outHeaders === null) this._outHeaders = new HeaderTable();
    this._outHeaders[key] = [name, value, ascii];
    return this;
  }

  appendHeader(name, value) {
    if (this._head !== null) throw errors.headersSent('append');
    const key = checkedKey(name);
    const ascii = checkValue(name, value, this);
    if (this._outHeaders === null) this._outHeaders = new HeaderTable();
    const entry = this._outHeaders[key];
    if (entry === undefined) this._outHeaders[key] = [name, value, ascii];
    else entry[1] = (Array.isArray(entry[1]) ? entry[1] : [entry[1]]).concat(value);
    return this;
  }

  // A Headers or a Map, each entry as setHeader(); the Set-Cookie values
  // (a Headers yields each apart) become one list, so none replaces another.
  setHeaders(headers) {
    if (this._head !== null) throw errors.headersSent('set');
    if (!isHeadersOrMap(headers)) throw errors.notHeadersOrMap('headers', headers);
    let cookies = null;
    for (const [name, value] of headers) {
      if (name === 'set-cookie') cookies = cookies === null ? [].concat(value) : cookies.concat(value);
      else this.setHeader(name, value);
    }
    if (cookies !== null) this.setHeader('set-cookie', cookies);
    return this;
  }

  getHeader(name) {
    if (typeof name !== 'string') throw errors.notAString('name', name);
    const entry = this._outHeaders === null ? undefined : this._outHeaders[keyOf(name)];
    return entry === undefined ? undefined : entry[1];
  }

  getHeaders() {
    const out = { __proto__: null };
    for (const key in this._outHeaders) out[key] = this._outHeaders[key][1];
    return out;
  }

  getHeaderNames() {
    return this._outHeaders === null ? [] : Object.keys(this._outHeaders);
  }

  getRawHeaderNames() {
    const names = [];
    for (const key in this._outHeaders) names.push(this._outHeaders[key][0]);
    return names;
  }

  hasHeader(name) {
    if (typeof name !== 'string') throw errors.notAString('name', name);
    return this._outHeaders !== null && this._outHeaders[keyOf(name)] !== undefined;
  }

  // Removing Connection, Content-Length or Transfer-Encoding also keeps the
  // server from adding its own; removing Date, the Date line.
  removeHeader(name) {
    if (typeof name !== 'string') throw errors.notAString('name', name);
    if (this._head !== null) throw errors.headersSent('remove');
    const key = keyOf(name);
    const bit = NOTED.get(key);
    if (bit === DATE) this.sendDate = false;
    else if (bit !== undefined && bit !== TRAILER && bit !== KEEP_ALIVE) this._removed |= bit;
    if (this._outHeaders !== null) delete this._outHeaders[key];
  }

  addTrailers(headers) {
    let trailer = '';
    const pairs = Array.isArray(headers) ? headers : Object.entries(headers);
    for (const [field, given] of pairs) {
      validateHeaderName(field, 'Trailer name');
      const values = !Array.isArray(given) ? [given] :
        given.length > 1 && !this._isUnique(field) ? given : [given.join('; ')];
      for (const value of values) {
        validateHeaderValue(field, value);
        trailer += field + ': ' + value + CRLF;
      }
    }
    this._trailer = trailer;
  }

  // ---- the head ----

  writeHead(statusCode, reason, headers) {
    if (this._head !== null) throw errors.headersSent('write');
    const code = statusCode | 0;
    if (code < 100 || code > 999) throw errors.invalidStatusCode(statusCode);
    if (typeof reason === 'string') this.statusMessage = reason;
    else {
      if (!this.statusMessage) this.statusMessage = STATUS_CODES[code] || 'unknown';
      if (headers === undefined || headers === null) headers = reason;
    }
    this.statusCode = code;
    // With headers set before, the ones given here replace theirs.
    if (this._outHeaders !== null) {
      if (Array.isArray(headers)) {
        if (headers.length % 2 !== 0) throw errors.invalidArgValue('headers', headers);
        for (let n = 0; n < headers.length; n += 2) this.removeHeader(headers[n]);
        for (let n = 0; n < headers.length; n += 2) if (headers[n]) this.appendHeader(headers[n], headers[n + 1]);
      } else if (headers) {
        for (const key of Object.keys(headers)) if (key) this.setHeader(key, headers[key]);
      }
      headers = this._outHeaders;
    }
    let statusLine;
    if (this.statusMessage === STATUS_CODES[code]) statusLine = wire.statusLine(code);
    else if (BAD_STATUS_CHAR.test(this.statusMessage)) throw errors.invalidChar('statusMessage');
    else {
      statusLine = `HTTP/1.1 ${code} ${this.statusMessage}\r\n`;
      if (NON_ASCII.test(this.statusMessage)) this._headAscii = false;
    }
    if (code === 204 || code === 304 || code < 200) this._hasBody = false;
    // A client that expects 100 Continue and got a final status may still send.
    if (this._expect_continue && !this._sent100) this.shouldKeepAlive = false;
    this._head = this._makeHead(statusLine, headers);
    return this;
  }

  // Does the head say a Content-Length that the body must match? (What
  // strictContentLength holds the body to, as node:http: a length given and
  // not removed, for a body that is not chunked.)
  _declaresLength() {
    return this._contentLength !== null && this._contentLength !== undefined && this._hasBody &&
      (this._removed & CONTENT_LENGTH) === 0 && !this.chunkedEncoding && !this.hasHeader('transfer-encoding');
  }

  // (node:http's name: frameworks call it to make the head now.)
  _implicitHeader() {
    this.writeHead(this.statusCode);
  }

  _makeHead(statusLine, headers) {
    this._said = 0;
    let head = statusLine;
    if (headers === this._outHeaders) {
      for (const key in headers) {
        const entry = headers[key];
        head = this._addLines(head, entry[0], entry[1], false, entry[2]);
      }
    } else if (Array.isArray(headers)) {
      if (headers.length !== 0 && Array.isArray(headers[0])) {
        for (let i = 0; i < headers.length; i++) head = this._addLines(head, headers[i][0], headers[i][1], true);
      } else {
        if (headers.length % 2 !== 0) throw errors.invalidArgValue('headers', headers);
        for (let n = 0; n < headers.length; n += 2) head = this._addLines(head, headers[n], headers[n + 1], true);
      }
    } else if (headers !== undefined && headers !== null) {
      // (node:http's walk of a headers object: its own enumerable keys, by
      // for-in, which allocates nothing where Object.keys() makes an array.)
      for (const key in headers) {
        if (hasOwnProperty.call(headers, key)) head = this._addLines(head, key, headers[key], true);
      }
    }
    const said = this._said;
    // No chunked 204/304: the connection closes instead of a zero chunk.
    if (this.chunkedEncoding && (this.statusCode === 204 || this.statusCode === 304)) {
      this.chunkedEncoding = false;
      this.shouldKeepAlive = false;
    }
    const connection = this._connectionLine(said);
    head += this.sendDate && (said & DATE) === 0 ? wire.dateLineWith(connection) : connection;
    if ((said & (CONTENT_LENGTH | TRANSFER_ENCODING)) === 0) {
      const framing = bodyFraming(this, said);
      const [line, chunked, closes] = FRAMING[framing];
      head += framing === KNOWN_LENGTH ? 'Content-Length: ' + this._contentLength + CRLF : line;
      this.chunkedEncoding = chunked;
      if (closes) this._last = true;
    }
    if (!this.chunkedEncoding && (said & TRAILER) !== 0) throw errors.trailerInvalid();
    return head + CRLF;
  }

  // The Connection line the server adds (none when the handler gave one).
  _connectionLine(said) {
    if ((this._removed & CONNECTION) !== 0) {
      this._last = !this.shouldKeepAlive;
      return '';
    }
    if ((said & CONNECTION) !== 0) return '';
    const keepAlive = this.shouldKeepAlive && ((said & CONTENT_LENGTH) !== 0 || this.useChunkedEncodingByDefault);
    if (!keepAlive) {
      this._last = true;
      return wire.CONNECTION_CLOSE;
    }
    if (this.maxRequestsOnConnectionReached) return wire.CONNECTION_CLOSE;
    return (said & KEEP_ALIVE) === 0 ? this._loop.server.keepAliveLines() : wire.CONNECTION_KEEP_ALIVE;
  }

  // Whether header values may hold control characters other than NUL, CR
  // and LF: node:http's rule for a server made with httpValidation 'relaxed'
  // or 'insecure', or insecureHTTPParser (on the lines whose node:http has
  // lenient values; before, its check ignores the flag).
  lenientValues() {
    const server = this._loop === null ? null : this._loop.server;
    return server !== null && (server.insecureHTTPParser === true || server.httpValidation === 'relaxed' ||
      server.httpValidation === 'insecure');
  }

  // Whether `name` is one of the server's uniqueHeaders: node:http sends a
  // list of values of such a header on one line, joined by '; '.
  _isUnique(name) {
    const unique = this._loop === null ? undefined : this._loop.server[kUniqueHeaders];
    return unique !== undefined && unique !== null && unique.has(keyOf(name));
  }

  // Appends the line(s) of header `name` to `head`, noting what they say.
  // (A name a line was remembered for passed the check then: a single
  // value's line checks it only when it is not remembered, in _addLine().)
  _addLines(head, name, value, validate, ascii) {
    if (Array.isArray(value)) {
      if (validate) checkedKey(name);
      if ((value.length < 2 || name.length !== 6 || keyOf(name) !== 'cookie') && !this._isUnique(name)) {
        for (let i = 0; i < value.length; i++) head = this._addLine(head, name, value[i], validate);
        return head;
      }
      value = value.join('; ');
      ascii = undefined;
    }
    return this._addLine(head, name, value, validate, ascii);
  }

  // (`ascii`: true when the value is known to be ASCII, from its check.)
  _addLine(head, name, value, validate, ascii) {
    const recent = recentLines.get(name);
    if (recent !== undefined && recent.value === value) {
      if (recent.bit !== undefined) this._note(recent.bit, value);
      if (!recent.ascii) this._headAscii = false;
      // (A line given again is made flat once: join() makes one flat
      // string, where `+` makes a tree of them.)
      if (!recent.flat) {
        recent.line = [name, ': ', value, CRLF].join('');
        recent.flat = true;
      }
      return head + recent.line;
    }
    if (validate) {
      checkedKey(name);
      ascii = checkValue(name, value, this);
    }
    const bit = notedBit(name);
    if (bit !== undefined) this._note(bit, value);
    else if (name.length === 19 && isContentDisposition(name)) {
      // (Its line depends on the answer: not remembered.)
      if (this._contentLength && typeof value === 'string') value = latin1ForUtf8Write(value);
      if (typeof value === 'string' && NON_ASCII.test(value)) this._headAscii = false;
      return head + name + ': ' + value + CRLF;
    }
    const line = name + ': ' + value + CRLF;
    // (A name is a token: ASCII.)
    if (ascii !== true) ascii = typeof value !== 'string' || !NON_ASCII.test(value);
    if (!ascii) this._headAscii = false;
    // (Lines of a lenient server are not remembered: a strict one takes a
    // remembered line unchecked.)
    // (A name's record takes its new value in place: a value that changes
    // with every answer, as a length, makes no record each time.)
    if ((typeof value === 'string' || typeof value === 'number') && !this.lenientValues()) {
      if (recent !== undefined) {
        recent.value = value;
        recent.line = line;
        recent.flat = false;
        recent.ascii = ascii;
      } else {
        if (recentLines.size >= RECENT_NAMES) recentLines.clear();
        recentLines.set(name, { value, line, bit, flat: false, ascii });
      }
    }
    return head + line;
  }

  _note(bit, value) {
    this._said |= bit;
    if (this._removed !== 0) this._removed &= ~bit;
    if (bit === CONNECTION) {
      if (SAYS_CLOSE.test(value)) this._last = true;
      else this.shouldKeepAlive = true;
    } else if (bit === TRANSFER_ENCODING) {
      if (SAYS_CHUNKED.test(value)) this.chunkedEncoding = true;
    } else if (bit === CONTENT_LENGTH) {
      this._contentLength = +value;
    }
  }
}

Object.setPrototypeOf(OutgoingHead.prototype, Stream.prototype);
Object.setPrototypeOf(OutgoingHead, Stream);

// Is a line of the head not ASCII? (Then it cannot share a utf8 write.)
function isNonAscii(head) {
  return NON_ASCII.test(head);
}

// (What most responses never change: ./default-fields.js.)
defaultFields(OutgoingHead.prototype, {
  sendDate: true,
  maxRequestsOnConnectionReached: false,
  _expect_continue: false,
  _sent100: false,
  _trailer: '',
  _headAscii: true,                 // no character of the head is above 0x7f
  _removed: 0,                      // what removeHeader() took away (bits above)
});

module.exports = { OutgoingHead, isNonAscii };
