'use strict';
// The processes of the end-to-end benchmarks (server.js, client.js): where
// each runs (the measured process on CPU 0, its load on CPU 1, with taskset),
// a child that answers typed IPC messages, and the CPU time a process spends
// per request over a measured window, read from /proc/<pid>/stat.
//
// A measured child (server-child.js, client-child.js) speaks this protocol:
//   → { type: 'listening' | 'ready', ... } once it can be loaded, or
//     { type: 'unavailable', reason } when its parser cannot be used;
//   { type: 'reset' } → { type: 'reset' }: counters to zero, the window begins;
//   { type: 'report' } → { type: 'report', requests, ... }: what it did since;
//   { type: 'exit' }.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, execFileSync } = require('node:child_process');

function which(cmd) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    const full = path.join(dir, cmd);
    try {
      fs.accessSync(full, fs.constants.X_OK);
      return full;
    } catch {}
  }
  return null;
}

const TASKSET = which('taskset');
const PINNED = Boolean(TASKSET && os.cpus().length > 1);
// The measured process (a server, a client) and what loads it (the load
// generator, the client's peer server).
const MEASURED_CPU = 0;
const LOAD_CPU = 1;

function pinned(cpu, argv) {
  return PINNED ? [TASKSET, '-c', String(cpu), ...argv] : argv;
}

function clockTicks() {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}
const CLK_TCK = clockTicks();

// utime + stime of a process (all its threads), in seconds.
function cpuSeconds(pid) {
  const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state); utime is field 14, stime field 15.
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A child process with typed IPC replies: expect(match) resolves to the
// first message that matches (one that came early included), request(type)
// sends { type } and waits for the reply of that type (or 'unavailable'),
// ready resolves to its first 'listening', 'ready' or 'unavailable'.
function ipcChild(argv, label) {
  const proc = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  proc.on('error', () => {}); // a send on a closed channel; the exit handler reports the child's end
  const waiters = [];
  const early = [];
  proc.on('message', (msg) => {
    const i = waiters.findIndex((w) => w.match(msg));
    if (i >= 0) waiters.splice(i, 1)[0].resolve(msg);
    else early.push(msg);
  });
  proc.on('exit', (code, signal) => {
    for (const w of waiters.splice(0)) w.reject(new Error(`${label} exited with ${code === null ? signal : code}`));
  });
  const expect = (match) => {
    const j = early.findIndex(match);
    if (j >= 0) return Promise.resolve(early.splice(j, 1)[0]);
    return new Promise((resolve, reject) => {
      if (proc.exitCode !== null || proc.signalCode !== null) reject(new Error(`${label} has exited`));
      else waiters.push({ match, resolve, reject });
    });
  };
  const byType = (...types) => (msg) => types.includes(msg.type) || msg.type === 'unavailable';
  return {
    proc,
    expect,
    ready: expect(byType('listening', 'ready')),
    send: (msg) => proc.send(msg),
    request(type) {
      const reply = expect(byType(type));
      proc.send({ type });
      return reply;
    },
    stop() {
      return new Promise((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        const timer = setTimeout(() => proc.kill('SIGKILL'), 2000);
        proc.once('exit', () => { clearTimeout(timer); resolve(); });
        if (proc.connected) proc.send({ type: 'exit' });
        else proc.kill('SIGKILL');
      });
    },
  };
}

// The measured window of one child, `seconds` long from the reset: its CPU
// time and the requests it reported, per request.
async function measureWindow(child, seconds) {
  await child.request('reset');
  const cpu0 = cpuSeconds(child.proc.pid);
  const t0 = process.hrtime.bigint();
  await sleep(seconds * 1000);
  return windowReport(child, cpu0, t0);
}

// The window that began at (cpu0, t0) ends now: CPU µs and requests per second.
async function windowReport(child, cpu0, t0) {
  const cpu = cpuSeconds(child.proc.pid) - cpu0;
  const report = await child.request('report');
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const n = report.requests;
  return { report, requests: n, cpuSeconds: cpu, wallSeconds: wall,
    cpuUsPerRequest: n ? (cpu * 1e6) / n : NaN, requestsPerSecond: n / wall };
}

module.exports = { which, PINNED, MEASURED_CPU, LOAD_CPU, pinned, cpuSeconds, sleep, ipcChild, measureWindow, windowReport };
