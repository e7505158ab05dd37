'use strict';
// The load generators of benchmark/server.js, pinned to the load CPU
// (processes.js): autocannon (npm) in one load process for the whole session
// (server-load.js), or wrk (Debian) in one process per target, its Lua script
// cycling through the workload's requests. Both send the same bytes
// (server-workloads.js). loader.start({ workload, seed, connections, seconds,
// targets: [{ tag, port }] }) loads every target at once and resolves once
// the load runs, with stop() and done() (the loader's counts per tag).

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const common = require('./common');
const processes = require('./processes');
const workloads = require('./server-workloads');

const ROOT = common.ROOT;

function loaderChoice(wanted) {
  if (wanted === 'wrk' || (!wanted && processes.which('wrk'))) {
    if (!processes.which('wrk')) throw new Error('wrk is not installed (apt-get install wrk), or use --loader=autocannon');
    return 'wrk';
  }
  try {
    require.resolve('autocannon', { paths: [ROOT] });
    return 'autocannon';
  } catch {
    throw new Error('no load generator: run npm install (autocannon) or install wrk (apt-get install wrk)');
  }
}

// autocannon runs in one load process for the whole session.
function autocannonLoader() {
  const child = processes.ipcChild(processes.pinned(processes.LOAD_CPU, [process.execPath, path.join(__dirname, 'server-load.js')]), 'load process');
  let next = 0;
  return {
    name: 'autocannon',
    // Starts the load on every target; resolves once it runs, with done() for the results.
    async start({ workload, seed, connections, seconds, targets }) {
      await child.ready;
      const id = ++next;
      const started = child.expect((m) => m.id === id && (m.type === 'started' || m.type === 'done'));
      const done = child.expect((m) => m.id === id && m.type === 'done');
      child.send({ type: 'run', id, workload, seed, connections, seconds, targets });
      const first = await started;
      if (first.type === 'done') throw new Error(`load process: ${first.error}`);
      return {
        stop: () => child.send({ type: 'stop', id }),
        done: () => done.then((m) => {
          if (m.error) throw new Error(`load process: ${m.error}`);
          return m.results;
        }),
      };
    },
    close: () => child.stop(),
  };
}

// A Lua string literal for arbitrary bytes (long brackets would turn CR LF into LF).
function luaString(buf) {
  let out = '"';
  for (const byte of buf) {
    if (byte >= 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x5c) out += String.fromCharCode(byte);
    else out += `\\${String(byte).padStart(3, '0')}`;
  }
  return out + '"';
}

// wrk: one process per target, its Lua script cycling through the workload's requests.
function wrkLoader() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'llhttp-napi-wrk-'));
  const scripts = new Map();
  const script = (workload, seed) => {
    const key = `${workload}/${seed}`;
    if (!scripts.has(key)) {
      const list = workloads.requests(workload, { seed });
      const file = path.join(dir, `${workload}-${seed}.lua`);
      const body = list.map((req) => luaString(workloads.serialize(req))).join(',\n');
      fs.writeFileSync(file, `local requests = {\n${body}\n}\nlocal n = #requests\nlocal i = 0\n` +
        'request = function()\n  i = i % n + 1\n  return requests[i]\nend\n');
      scripts.set(key, file);
    }
    return scripts.get(key);
  };
  const bin = processes.which('wrk');
  return {
    name: 'wrk',
    async start({ workload, seed, connections, seconds, targets }) {
      const file = script(workload, seed);
      const procs = targets.map(({ tag, port }) => {
        const argv = processes.pinned(processes.LOAD_CPU, [bin, '-t1', `-c${connections}`, `-d${Math.ceil(seconds)}s`, '--timeout', '10s',
          '-s', file, `http://127.0.0.1:${port}/`]);
        const proc = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        proc.stdout.on('data', (d) => { out += d; });
        proc.stderr.on('data', (d) => { out += d; });
        const done = new Promise((resolve) => proc.on('close', () => {
          const num = (re) => Number((re.exec(out) || [])[1] || 0);
          const errs = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
          resolve([tag, { requests: num(/(\d+) requests in/), non2xx: num(/Non-2xx or 3xx responses: (\d+)/),
            errors: errs ? Number(errs[1]) + Number(errs[2]) + Number(errs[3]) : 0, timeouts: errs ? Number(errs[4]) : 0 }]);
        }));
        return { proc, done };
      });
      return {
        stop: () => { for (const { proc } of procs) proc.kill('SIGINT'); },
        done: () => Promise.all(procs.map((p) => p.done)).then(Object.fromEntries),
      };
    },
    close: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

// The loader `wanted` (wrk, autocannon; by default wrk when installed).
function createLoader(wanted) {
  return loaderChoice(wanted) === 'wrk' ? wrkLoader() : autocannonLoader();
}

module.exports = { createLoader };
