'use strict';
// The load process of benchmark/server.js (started by it, pinned to CPU 1):
// autocannon in this one process, one instance per server, so that a paired
// round loads both servers from the same event loop over the same window.
// Driven over IPC:
//   { type: 'run', id, workload, seed, connections, seconds, targets: [{ tag, port }] }
//     → { type: 'started', id } once every instance has started,
//       { type: 'done', id, results: { [tag]: { requests, errors, non2xx, timeouts } } }
//   { type: 'stop', id } ends a run early; { type: 'exit' }.

const path = require('node:path');
const workloads = require('./server-workloads');

const ROOT = path.resolve(__dirname, '..');
const autocannon = require(require.resolve('autocannon', { paths: [ROOT] }));

const cache = new Map();
function requestsFor(workload, seed) {
  const key = `${workload}/${seed}`;
  if (!cache.has(key)) cache.set(key, workloads.requests(workload, { seed }).map(workloads.forAutocannon));
  return cache.get(key);
}

const runs = new Map();

function run({ id, workload, seed, connections, seconds, targets }) {
  const requests = requestsFor(workload, seed);
  let started = 0;
  const instances = targets.map(({ tag, port }) => {
    const instance = autocannon({
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
