'use strict';
// The load process of benchmark/server.js (started by it, pinned to CPU 1):
// autocannon in this one process, one instance per server, so that a paired
// round loads both servers from the same event loop over the same window;
// or, with client 'c', one benchmark/c/load-client.c per server (children
// of this process, on its CPU), which spends a fraction of autocannon's CPU
// per request and so leaves the pace to the server. Driven over IPC:
//   { type: 'run', id, workload, seed, connections, seconds, targets: [{ tag, port }], client }
//     → { type: 'started', id } once every instance has started,
//       { type: 'done', id, results: { [tag]: { requests, errors, non2xx, timeouts } } }
//   { type: 'stop', id } ends a run early; { type: 'exit' }.

const EventEmitter = require('node:events');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { build } = require('./c-programs');
const workloads = require('./server-workloads');

const ROOT = path.resolve(__dirname, '..');
const autocannon = require(require.resolve('autocannon', { paths: [ROOT] }));

const cache = new Map();
function requestsFor(workload, seed) {
  const key = `${workload}/${seed}`;
  if (!cache.has(key)) cache.set(key, workloads.requests(workload, { seed }).map(workloads.forAutocannon));
  return cache.get(key);
}

// load-client.c's requests file of a workload: each request's bytes after
// their length (4 bytes, little-endian), removed when this process exits.
const files = new Map();
process.on('exit', () => { for (const file of files.values()) fs.rmSync(file, { force: true }); });
function requestsFileFor(workload, seed) {
  const key = `${workload}/${seed}`;
  if (!files.has(key)) {
    const parts = [];
    for (const req of workloads.requests(workload, { seed })) {
      const bytes = workloads.serialize(req);
      const length = Buffer.alloc(4);
      length.writeUInt32LE(bytes.length);
      parts.push(length, bytes);
    }
    const file = path.join(os.tmpdir(), `llhttp-napi-load-${process.pid}-${files.size}.bin`);
    fs.writeFileSync(file, Buffer.concat(parts));
    files.set(key, file);
  }
  return files.get(key);
}

// One load-client per target: an object with autocannon's stop() and
// 'start' / 'done' / 'error' events as run() uses them.
function cClient({ port, connections, seconds, file }) {
  const child = spawn(build('load-client'), [String(port), String(connections), String(seconds), file],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  const events = new EventEmitter();
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (text) => { out += text; });
  child.once('spawn', () => events.emit('start'));
  child.once('error', (err) => events.emit('error', err));
  child.once('close', (code) => {
    let r;
    try {
      r = JSON.parse(out);
    } catch {
      events.emit('error', new Error(`load-client exited with ${code}: ${out.trim()}`));
      return;
    }
    events.emit('done', { requests: { total: r.requests }, errors: r.errors, non2xx: r.non2xx, timeouts: 0 });
  });
  events.stop = () => child.kill('SIGTERM');
  return events;
}

const runs = new Map();

function run({ id, workload, seed, connections, seconds, targets, client = 'autocannon' }) {
  const requests = client === 'c' ? null : requestsFor(workload, seed);
  const file = client === 'c' ? requestsFileFor(workload, seed) : null;
  let started = 0;
  const instances = targets.map(({ tag, port }) => {
    const instance = client === 'c' ? cClient({ port, connections, seconds, file }) : autocannon({
      url: `http://127.0.0.1:${port}`,
      connections,
      duration: seconds,
      requests,
      timeout: 10,
      // autocannon notices stop() at its next sample: sampling often makes a
      // stopped run end at once rather than up to a second later.
      sampleInt: 100,
    });
    instance.once('start', () => {
      if (++started === targets.length) process.send({ type: 'started', id });
    });
    return { tag, instance };
  });
  runs.set(id, instances);
  Promise.all(instances.map(({ tag, instance }) => new Promise((resolve) => {
    instance.once('done', (r) => resolve([tag, {
      requests: r.requests.total, errors: r.errors, non2xx: r.non2xx, timeouts: r.timeouts,
    }]));
    instance.once('error', (err) => resolve([tag, { error: err.message }]));
  }))).then((pairs) => {
    runs.delete(id);
    process.send({ type: 'done', id, results: Object.fromEntries(pairs) });
  });
}

process.on('message', (msg) => {
  if (msg.type === 'run') {
    try {
      run(msg);
    } catch (err) {
      process.send({ type: 'done', id: msg.id, error: err.message });
    }
  } else if (msg.type === 'stop') {
    for (const { instance } of runs.get(msg.id) || []) instance.stop();
  } else if (msg.type === 'exit') {
    process.exit(0);
  }
});
process.send({ type: 'ready' });
