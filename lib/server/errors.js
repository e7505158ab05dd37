'use strict';
// The errors llhttp-napi/server throws where node:http throws one of its
// internal errors: same class, `code` and message.

const { format, inspect } = require('node:util');

// How node:http's messages name a value of the wrong type.
function received(value) {
  if (value === null || value === undefined) return ` Received ${value}`;
  if (typeof value === 'function') return ` Received function ${value.name}`;
  if (typeof value === 'object') {
    const name = value.constructor?.name;
    return name ? ` Received an instance of ${name}` : ` Received ${inspect(value, { depth: -1 })}`;
  }
  let shown = inspect(value, { colors: false });
  if (shown.length > 28) shown = `${shown.slice(0, 25)}...`;
  return ` Received type ${typeof value} (${shown})`;
}

// Node's internal errors print their code: `Error [CODE]: message` heads
// their stack (and so what inspect() and an uncaught throw show) and their
// String(), while `name` stays the base's. Ours are of a subclass of the
// base (one per base, named as it) whose toString() adds the code; the stack
// is formatted once with the code in the name, which is then dropped.
const codedClasses = new Map();

function codedClass(Base) {
  let Coded = codedClasses.get(Base);
  if (Coded === undefined) {
    Coded = {
      [Base.name]: class extends Base {
        toString() {
          return `${this.name} [${this.code}]: ${this.message}`;
        }
      },
    }[Base.name];
    codedClasses.set(Base, Coded);
  }
  return Coded;
}

function make(Base, code, message) {
  const err = new (codedClass(Base))(message);
  err.name = `${Base.name} [${code}]`;
  err.stack; // formats the stack now, with the code in it
  delete err.name;
  err.code = code;
  return err;
}

module.exports = {
  headersSent: (action) => make(Error, 'ERR_HTTP_HEADERS_SENT',
    `Cannot ${action} headers after they are sent to the client`),
  invalidStatusCode: (code) => make(RangeError, 'ERR_HTTP_INVALID_STATUS_CODE', format('Invalid status code: %s', code)),
  badLink: (value) => make(TypeError, 'ERR_INVALID_ARG_VALUE', 'The argument \'hints\' must be an array or string of ' +
    `format "</styles.css>; rel=preload; as=style". Received ${inspect(value)}`),
  bodyNotAllowed: () => make(Error, 'ERR_HTTP_BODY_NOT_ALLOWED',
    'Adding content for this request method or response status is not allowed.'),
  cannotPipe: () => make(Error, 'ERR_STREAM_CANNOT_PIPE', 'Cannot pipe, not readable'),
  socketEncoding: () => make(Error, 'ERR_HTTP_SOCKET_ENCODING',
    'Changing the socket encoding is not allowed per RFC7230 Section 3.'),
  invalidChar: (name) => make(TypeError, 'ERR_INVALID_CHAR', `Invalid character in ${name}`),
  trailerInvalid: () => make(Error, 'ERR_HTTP_TRAILER_INVALID',
    'Trailers are invalid with this transfer encoding'),
  writeAfterEnd: () => make(Error, 'ERR_STREAM_WRITE_AFTER_END', 'write after end'),
  streamDestroyed: (method) => make(Error, 'ERR_STREAM_DESTROYED',
    `Cannot call ${method} after a stream was destroyed`),
  nullValues: () => make(TypeError, 'ERR_STREAM_NULL_VALUES', 'May not write null values to stream'),
  invalidChunk: (chunk) => make(TypeError, 'ERR_INVALID_ARG_TYPE',
    'The "chunk" argument must be of type string or an instance of Buffer or Uint8Array.' + received(chunk)),
  notAString: (name, value) => make(TypeError, 'ERR_INVALID_ARG_TYPE',
    `The "${name}" argument must be of type string.` + received(value)),
  notANumber: (name, value) => make(TypeError, 'ERR_INVALID_ARG_TYPE',
    `The "${name}" argument must be of type number.` + received(value)),
  alreadyFinished: (method) => make(Error, 'ERR_STREAM_ALREADY_FINISHED',
    `Cannot call ${method} after a stream was finished`),
  invalidArgValue: (name, value) => make(TypeError, 'ERR_INVALID_ARG_VALUE',
    `The argument '${name}' is invalid. Received ${inspect(value)}`),
  notHeadersOrMap: (name, value) => make(TypeError, 'ERR_INVALID_ARG_TYPE',
    `The "${name}" argument must be an instance of Headers or Map.` + received(value)),
  notAnObject: (name, value) => make(TypeError, 'ERR_INVALID_ARG_TYPE',
    `The "${name}" argument must be of type object.` + received(value)),
  outOfRange: (name, range, value) => make(RangeError, 'ERR_OUT_OF_RANGE',
    `The value of "${name}" is out of range. It must be ${range}. Received ${inspect(value)}`),
  contentLengthMismatch: (bytes, declared) => make(Error, 'ERR_HTTP_CONTENT_LENGTH_MISMATCH',
    `Response body's content-length of ${bytes} byte(s) does not match the content-length of ${declared} byte(s) ` +
    'set in header'),
  requestTimeout: () => make(Error, 'ERR_HTTP_REQUEST_TIMEOUT', 'Request timeout'),
  connectionReset: () => {
    const err = make(Error, 'ECONNRESET', 'aborted');
    return err;
  },
};
