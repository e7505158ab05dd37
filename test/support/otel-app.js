'use strict';
// A plain node:http application (node:https with OTEL_APP_TLS=1) traced by
// test/support/otel-setup.js (test/server/opentelemetry.test.js): two
// requests from node:http's client to its server. Prints JSON: the spans exported (what does not depend on the
// run: names, kinds, parents, attributes without ports and addresses), and
// whether the server's span was active in the handler and in a timer and a
// promise the handler scheduled.
const tls = process.env.OTEL_APP_TLS === '1';
const http = require(tls ? 'node:https' : 'node:http');
const { trace } = require('@opentelemetry/api');

const active = {};
function spanNow() {
  return trace.getActiveSpan()?.spanContext().spanId;
}

const clientPorts = [];
let serverPort;
const server = http.createServer(tls ? require('./certificate').selfSigned() : {}, (req, res) => {
  clientPorts.push(String(req.socket.remotePort));
  if (req.method === 'POST') {
    req.resume();
    req.on('end', () => {
      res.statusCode = 404;
      res.end('none');
    });
    return;
  }
  active.handler = spanNow();
  setTimeout(() => {
    active.timer = spanNow();
    Promise.resolve().then(() => {
      active.promise = spanNow();
      res.end('ok');
    });
  }, 1);
});

function request(options, body, then) {
  const req = http.request({ port: serverPort, host: '127.0.0.1', agent: false, rejectUnauthorized: false, ...options }, (res) => {
    res.resume();
    res.on('end', then);
  });
  req.end(body);
}

server.listen(0, '127.0.0.1', () => {
  serverPort = server.address().port;
  request({ path: '/a?b=c' }, undefined, () => {
    request({ method: 'POST', path: '/form', headers: { 'user-agent': 'probe/1' } }, 'x=1', () => server.close(report));
  });
});

// An attribute's value with this run's ports named.
function stable(value) {
  const port = String(serverPort);
  if (typeof value !== 'string' && typeof value !== 'number') return value;
  let text = String(value).replaceAll(port, 'PORT');
  for (const client of clientPorts) text = text.replaceAll(client, 'CLIENT_PORT');
  return typeof value === 'number' && text === String(value) ? value : text;
}

function report() {
  const spans = global.otelExporter.getFinishedSpans();
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const out = spans.map((s) => ({
    name: s.name,
    kind: s.kind,
    parent: byId.get(s.parentSpanContext?.spanId ?? s.parentSpanId)?.name ?? null,
    status: s.status,
    scope: s.instrumentationScope?.name ?? s.instrumentationLibrary?.name,
    attributes: Object.fromEntries(Object.entries(s.attributes).map(([k, v]) => [k, stable(v)]).sort()),
    events: s.events.map((e) => e.name),
  }));
  const serverSpan = spans.find((s) => s.kind === 1);
  const serverId = serverSpan?.spanContext().spanId;
  process.stdout.write(JSON.stringify({
    spans: out,
    active: { handler: active.handler === serverId && serverId !== undefined,
      timer: active.timer === serverId && serverId !== undefined,
      promise: active.promise === serverId && serverId !== undefined },
    // (Which preload served it: the server preload's Server, or install()'s parser in node:http's.)
    ours: server instanceof require('../../lib/server')[tls ? 'SecureServer' : 'Server'] ? 'server' :
      require('../../lib').isInstalled() ? 'parser' : false,
  }, null, 1));
}
