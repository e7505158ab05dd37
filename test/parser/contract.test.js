'use strict';
// The contract between the core and lib/, written once in
// src/core/lhn_contract.h: the binding exports every slot of its lists by
// name, lib/workspace.js refuses to load without a name it needs, and a
// misspelled or misplaced slot fails the build. (docs/architecture.md,
// "Changing the seam".)
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const addon = require('../../lib/native');
const workspace = require('../../lib/workspace');
const llhttp = require('../../scripts/install/llhttp');

const ROOT = path.resolve(__dirname, '..', '..');
const CONTRACT = path.join(ROOT, 'src', 'core', 'lhn_contract.h');

// Every name the header's lists define, with its JavaScript prefix.
function contractNames() {
  const text = fs.readFileSync(CONTRACT, 'utf8');
  const lists = { LHN_EVENT_KINDS: 'EV_', LHN_EVENT_SLOT_LIST: 'EV_', LHN_HEADERS_FLAGS: 'HC_',
    LHN_PAIR_SLOT_LIST: 'PAIR_', LHN_WORKSPACE_SLOT_LIST: 'WS_', LHN_COMMAND_LIST: 'CMD_',
    LHN_HANDLER_LIST: 'HAS_', LHN_REWIND_LIST: 'REWIND_', LHN_SEAM_LIST: '' };
  const names = {};
  for (const [list, prefix] of Object.entries(lists)) {
    const body = new RegExp(`#define ${list}\\(X\\)((?:.*\\\\\\n)*.*)`).exec(text);
    assert.ok(body, `${list} in lhn_contract.h`);
    for (const m of body[1].matchAll(/X\((\w+), (\d+),/g)) names[prefix + m[1]] = Number(m[2]);
  }
  return names;
}

test('the binding exports every slot of the contract by name, with its value', () => {
  const names = contractNames();
  assert.ok(Object.keys(names).length > 40);
  for (const [name, value] of Object.entries(names)) assert.strictEqual(addon.layout[name], value, name);
  assert.ok(Object.isFrozen(addon.layout));
});

test('lib/ refuses a layout that lacks a name it needs, and names it', () => {
  for (const missing of ['EV_KIND', 'WS_COMMANDS', 'PAIR_KNOWN_NAME', 'HC_REPEATS']) {
    const layout = { ...addon.layout };
    delete layout[missing];
    assert.throws(() => workspace.checkLayout(layout),
      (err) => err.message.includes(`has no ${missing} `) && err.message.includes('lhn_contract.h'));
  }
  // a misspelling in lib/ is the same: a name the contract does not have
  assert.throws(() => workspace.checkLayout(addon.layout, ['EV_KIDN']), /has no EV_KIDN /);
  assert.doesNotThrow(() => workspace.checkLayout(addon.layout));
});

// Compiles `source` against src/core (and the header given in `include`,
// which may be a changed copy of lhn_contract.h); returns the compiler's result.
function compile(source, include = path.join(ROOT, 'src', 'core')) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'llhttp-napi-contract-'));
  try {
    const file = path.join(dir, 'probe.c');
    fs.writeFileSync(file, source);
    return spawnSync(process.env.CC || 'cc', ['-std=c11', '-fsyntax-only', '-I', include,
      '-I', llhttp.resolve().include, file], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('a misspelled slot fails the build, naming it', { skip: process.platform === 'win32' }, () => {
  const good = compile('#include "lhn_contract.h"\nint slot(void) { return LHN_EV_KIND; }\n');
  assert.strictEqual(good.status, 0, good.stderr);
  const bad = compile('#include "lhn_contract.h"\nint slot(void) { return LHN_EV_KIDN; }\n');
  assert.notStrictEqual(bad.status, 0);
  assert.match(bad.stderr, /LHN_EV_KIDN/);
});

test('a slot past its record fails the build (compile-time checks of the lists)',
     { skip: process.platform === 'win32' }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'llhttp-napi-contract-h-'));
  try {
    // lhn_contract.h with one event slot too many: one line in one list
    const text = fs.readFileSync(CONTRACT, 'utf8')
      .replace('X(BODY_LENGTH, 3, "BODY: its length")', 'X(BODY_LENGTH, 3, "BODY: its length") \\\n  X(EXTRA, 16, "")');
    assert.ok(text.includes('X(EXTRA, 16'));
    fs.writeFileSync(path.join(dir, 'lhn_contract.h'), text);
    const r = compile('#include "lhn_contract.h"\nint slot(void) { return LHN_EV_EXTRA; }\n', dir);
    assert.notStrictEqual(r.status, 0);
    assert.match(r.stderr, /an event slot past LHN_EVENT_SLOTS/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
