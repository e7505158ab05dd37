'use strict';
// docs/server.md's Fastify recipe type-checks against Fastify's serverFactory
// typing, in both module forms (test/server/types/, tsc, module nodenext).
// Runs where typescript and @types/node are installed, skipped otherwise.
const test = require('node:test');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..', '..');

// tsc, found through the typescript package's bin field (as npm finds it).
function tsc() {
  try {
    require.resolve('@types/node/package.json', { paths: [ROOT] });
    const manifest = require.resolve('typescript/package.json', { paths: [ROOT] });
    const { bin } = require(manifest);
    return path.join(path.dirname(manifest), typeof bin === 'string' ? bin : bin.tsc);
  } catch {
    return null;
  }
}

test('the Fastify recipe type-checks (fastifyServerFactory as Fastify\'s serverFactory, http and https)',
  { skip: tsc() === null && 'typescript and @types/node are not installed' }, () => {
    execFileSync(process.execPath, [tsc(), '-p', path.join(__dirname, 'types')], { cwd: ROOT, encoding: 'utf8' });
  });
