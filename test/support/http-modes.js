'use strict';
// Helpers for the install/server tests: every behaviour runs twice in the same
// process, once with Node's built-in parser and once after install(), with
// the same assertions.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const net = require('node:net');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { once } = require('node:events');

const ROOT = path.resolve(__dirname, '..', '..');
const llhttp = require(ROOT);
const { HTTPParser: OurParser } = require(path.join(ROOT, 'lib', 'parser'));

const MODES = ['builtin', 'llhttp-napi'];

function useMode(mode) {
  if (mode === 'builtin') llhttp.uninstall();
  else assert.equal(llhttp.install(), true);
}

// Which parser class parses a socket, asserted against the mode.
function assertParser(mode, parser) {
  assert.ok(parser, 'the socket has a parser');
  assert.equal(parser instanceof OurParser, mode !== 'builtin',
               `expected the ${mode} parser`);
}

// The parser a client request got (lib frees it when the response ends).
function parserOf(req) {
  const box = { parser: null };
  req.on('socket', (socket) => { box.parser = socket.parser; });
  return box;
}

// test(name) twice: `[builtin]` and `[llhttp-napi]`.
function bothWays(name, options, fn) {
  if (typeof options === 'function') {
    fn = options;
    options = {};
  }
  for (const mode of MODES) {
    test(`${name} [${mode}]`, options, async (t) => {
      useMode(mode);
      try {
        await fn(mode, t);
      } finally {
        llhttp.uninstall();
      }
    });
  }
}

async function listen(server) {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server.address().port;
}

async function closeServer(server) {
  if (typeof server.closeAllConnections === 'function') server.closeAllConnections();
  if (!server.listening) return;
  await new Promise((resolve) => server.close(resolve));
}

// Raw TCP exchange: writes `chunks` (strings/Buffers, or functions returning
// a promise for a delay), returns everything received until the peer closes
// or `until(received)` is true.
function rawRequest(port, chunks, { until, timeout = 5000 } = {}) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const parts = [];
    let done = false;
    const timer = setTimeout(() => finish(new Error('raw request timed out: ' +
      JSON.stringify(Buffer.concat(parts).toString('latin1')))), timeout);
    function finish(err) {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(Buffer.concat(parts).toString('latin1'));
    }
    socket.on('data', (d) => {
      parts.push(d);
      if (until && until(Buffer.concat(parts).toString('latin1'))) finish();
    });
    socket.on('error', () => finish());
    socket.on('close', () => finish());
    socket.on('connect', async () => {
      for (const c of chunks) {
        if (typeof c === 'function') await c();
        else if (!socket.destroyed) socket.write(c, 'latin1');
      }
    });
  });
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Runs a node child process; resolves { code, signal, stdout, stderr }.
function runNode(args, { env, cwd = ROOT, input, timeout = 30000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

// Collects a response body.
async function bodyOf(res) {
  const parts = [];
  for await (const chunk of res) parts.push(chunk);
  return Buffer.concat(parts).toString('latin1');
}

module.exports = {
  ROOT, MODES, llhttp, OurParser, useMode, assertParser, parserOf, bothWays, listen, closeServer,
  rawRequest, delay, runNode, bodyOf,
};
