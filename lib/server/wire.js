'use strict';
// The fixed bytes of llhttp-napi/server's answers, prepared once: status
// lines by code, the Date line (made at most once a second), the
// connection lines, the error answers of a bad request (node:http's own).

const { STATUS_CODES } = require('node:http');

const statusLines = [];

// 'HTTP/1.1 <code> <reason>\r\n' for a code whose reason is the standard one.
function statusLine(code) {
  let line = statusLines[code];
  if (line === undefined) {
    line = `HTTP/1.1 ${code} ${STATUS_CODES[code]}\r\n`;
    statusLines[code] = line;
  }
  return line;
}

let dateLineCache = null;

function clearDateLine() {
  dateLineCache = null;
}

// 'Date: <now>\r\n', the same string for every answer within a second.
function dateLine() {
  if (dateLineCache === null) {
    const now = Date.now();
    dateLineCache = 'Date: ' + new Date(now).toUTCString() + '\r\n';
    setTimeout(clearDateLine, 1000 - (now % 1000)).unref();
  }
  return dateLineCache;
}

let datedFor = null;
let datedDate = null;
let dated = '';

// dateLine() and then `line` (one of the few connection lines), as one
// flat string, the same for every answer within a second.
function dateLineWith(line) {
  const date = dateLine();
  if (line !== datedFor || date !== datedDate) {
    datedFor = line;
    datedDate = date;
    dated = [date, line].join('');
  }
  return dated;
}

const RE_TE_CHUNKED = /(?:^|\W)chunked(?:$|\W)/i;

// An HTTP/1.0 request may ask for a chunked answer (TE: chunked).
function chunkedRequested(req) {
  const te = req.getHeader('te');
  return te !== undefined && RE_TE_CHUNKED.test(te);
}

// The answers node:http gives a connection it drops for a client error.
function errorAnswer(status) {
  return Buffer.from(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n\r\n`, 'latin1');
}

const BAD_REQUEST = errorAnswer(400);
// A client error's code -> node:http's answer to it (any other: 400).
const ERROR_ANSWERS = new Map([
  ['HPE_HEADER_OVERFLOW', errorAnswer(431)],
  ['HPE_CHUNK_EXTENSIONS_OVERFLOW', errorAnswer(413)],
  ['ERR_HTTP_REQUEST_TIMEOUT', errorAnswer(408)],
]);

function answerToError(code) {
  return ERROR_ANSWERS.get(code) || BAD_REQUEST;
}

module.exports = {
  statusLine,
  dateLineWith,
  chunkedRequested,
  CONNECTION_CLOSE: 'Connection: close\r\n',
  CONNECTION_KEEP_ALIVE: 'Connection: keep-alive\r\n',
  TRANSFER_ENCODING_CHUNKED: 'Transfer-Encoding: chunked\r\n',
  CONTINUE: 'HTTP/1.1 100 Continue\r\n\r\n',
  PROCESSING: 'HTTP/1.1 102 Processing\r\n\r\n',
  CLOSE_PAIR: Object.freeze(['Connection', 'close']),
  answerToError,
};
