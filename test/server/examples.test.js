'use strict';
// examples/ run when copied into a project that installed llhttp-napi: each
// is copied into a scratch project whose node_modules holds this package,
// started on a free port and asked once.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');

const ROOT = path.join(__dirname, '..', '..');
const EXAMPLES = [
  ['net-server.js', '/hello', /"url":"\/hello"/],
  ['server.js', '/hello', /"url":"\/hello"/],
];

function project() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'llhttp-napi-examples-'));
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.symlinkSync(ROOT, path.join(dir, 'node_modules', 'llhttp-napi'), 'dir');
  return dir;
}

// Starts `file` on port 0; resolves with what it answers at `url`.
function ask(dir, file, url) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(dir, file), '0'], { cwd: dir });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    child.on('exit', (code) => code !== null && code !== 0 && reject(new Error(`${file} exited ${code}: ${err}`)));
    child.stdout.on('data', async (d) => {
      out += d;
      const m = /listening on (http:\/\/[^/\s]+)/.exec(out);
      if (m === null) return;
      child.stdout.removeAllListeners('data');
      try {
        const r = await fetch(m[1] + url);
        resolve(await r.text());
      } catch (e) {
        reject(e);
      } finally {
        child.kill();
      }
    });
  });
}

test('examples/ run in a project of their own (require(\'llhttp-napi\'), not require(\'..\'))', async () => {
  const dir = project();
  try {
    for (const [file, url, expected] of EXAMPLES) {
      fs.copyFileSync(path.join(ROOT, 'examples', file), path.join(dir, file));
      assert.match(await ask(dir, file, url), expected, file);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
