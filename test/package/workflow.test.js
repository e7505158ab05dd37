'use strict';
// The release workflow can run: it names only current GitHub-hosted runner
// labels (.github/runner-labels.json, kept by hand from actions/runner-images),
// tests every prebuild target, and publishes with npm's trusted publishing
// (OIDC) and provenance, with no long-lived token. It runs only on a tag, so
// this is where a retired or misspelled label is caught, before a tag is.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');

const ROOT = path.resolve(__dirname, '..', '..');
const WORKFLOWS = path.join(ROOT, '.github', 'workflows');
const LABELS = JSON.parse(fs.readFileSync(path.join(ROOT, '.github', 'runner-labels.json'), 'utf8'));

function workflows() {
  return fs.readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f)).sort()
    .map((f) => ({ file: f, text: fs.readFileSync(path.join(WORKFLOWS, f), 'utf8') }))
    .map((w) => ({ ...w, doc: YAML.parse(w.text) }));
}

// The values ${{ matrix.a.b }} takes over a job's matrix: a's values (and
// those of include entries), then .b of each.
function matrixValues(matrix, keys) {
  if (!matrix || typeof matrix !== 'object') return [];
  let values = [];
  if (Array.isArray(matrix[keys[0]])) values.push(...matrix[keys[0]]);
  for (const entry of matrix.include || []) if (entry && keys[0] in entry) values.push(entry[keys[0]]);
  for (const key of keys.slice(1)) {
    values = values.filter((v) => v && typeof v === 'object' && key in v).map((v) => v[key]);
  }
  return values;
}

// Every label a job's runs-on can name, or an error for one that cannot be
// read here (an expression other than a matrix value).
function labelsOf(job) {
  let runsOn = job['runs-on'];
  if (runsOn && typeof runsOn === 'object' && !Array.isArray(runsOn)) runsOn = runsOn.labels || [];
  const labels = [];
  for (const value of [].concat(runsOn)) {
    if (typeof value !== 'string') throw new Error(`runs-on ${JSON.stringify(value)} is not a label`);
    const m = /^\$\{\{\s*matrix\.([\w.-]+)\s*\}\}$/.exec(value.trim());
    if (m) {
      const values = matrixValues(job.strategy && job.strategy.matrix, m[1].split('.'));
      if (values.length === 0) throw new Error(`runs-on ${value}: no such matrix value`);
      labels.push(...values);
    } else if (value.includes('${{')) {
      throw new Error(`runs-on ${value}: an expression this test cannot resolve`);
    } else {
      labels.push(value);
    }
  }
  return labels;
}

// What is wrong with a label, or null.
function problemOf(label, today) {
  if (Object.hasOwn(LABELS.current, label)) return null;
  const old = LABELS.retired[label];
  if (old) return `${label} was retired on ${old.retired}: use ${old.use}${old.see ? ` (${old.see})` : ''}`;
  const going = LABELS.deprecated[label];
  if (going) {
    return going.retires <= today ? `${label} was retired on ${going.retires}: use ${going.use}` : null;
  }
  const near = Object.keys(LABELS.current).filter((c) => c.startsWith(label.replace(/[^a-z]+.*$/, '')));
  return `${label} is no GitHub-hosted runner label known to .github/runner-labels.json (current ones: ${near.join(', ') || 'none alike'})`;
}

function problems(docs, today) {
  const found = [];
  for (const { file, doc } of docs) {
    for (const [id, job] of Object.entries(doc.jobs || {})) {
      let labels;
      try {
        labels = labelsOf(job);
      } catch (err) {
        found.push(`${file}: job ${id}: ${err.message}`);
        continue;
      }
      for (const label of labels) {
        const problem = problemOf(label, today);
        if (problem) found.push(`${file}: job ${id}: ${problem}`);
      }
    }
  }
  return found;
}

const today = new Date().toISOString().slice(0, 10);

test('the label list is consistent', () => {
  const sets = ['current', 'deprecated', 'retired'].map((k) => Object.keys(LABELS[k]));
  const all = sets.flat();
  assert.equal(new Set(all).size, all.length, 'a label is in one list only');
  for (const [label, old] of Object.entries(LABELS.retired)) {
    assert.match(old.retired, /^\d{4}-\d{2}-\d{2}$/, label);
    assert.ok(old.use.split(/[ ,]/).some((u) => Object.hasOwn(LABELS.current, u)), `${label}: ${old.use} names a current label`);
  }
  for (const [label, going] of Object.entries(LABELS.deprecated)) {
    assert.match(going.retires, /^\d{4}-\d{2}-\d{2}$/, label);
    assert.ok(Object.hasOwn(LABELS.current, going.use), `${label}: ${going.use} is current`);
  }
});

test('the checker catches a retired, a misspelled and a deprecated label past its date', () => {
  const job = (os) => ({ 'runs-on': '${{ matrix.runner.os }}', strategy: { matrix: { runner: [{ os }] } } });
  const doc = { jobs: { a: job('macos-13'), b: job('macos-14'), c: job('macos-15-intell'), d: { 'runs-on': 'ubuntu-22.04' }, e: { 'runs-on': ['macos-15'] } } };
  const found = problems([{ file: 'x.yml', doc }], '2027-05-01');
  assert.equal(found.length, 4, found.join('\n'));
  assert.match(found[0], /job a: macos-13 was retired on 2025-12-04: use macos-15-intel/);
  assert.match(found[1], /job b: macos-14 was retired on 2026-11-02/);
  assert.match(found[2], /job c: macos-15-intell is no GitHub-hosted runner label/);
  assert.match(found[3], /job d: ubuntu-22.04 was retired on 2027-04-17/);
  assert.deepEqual(problems([{ file: 'x.yml', doc: { jobs: { d: doc.jobs.d } } }], '2026-12-01'), []);
  assert.match(problems([{ file: 'x.yml', doc: { jobs: { f: { 'runs-on': '${{ matrix.nope }}' } } } }], today)[0], /no such matrix value/);
});

test('every workflow names only current runner labels', (t) => {
  const docs = workflows();
  assert.ok(docs.some((w) => w.file === 'release.yml'));
  assert.deepEqual(problems(docs, today), []);
  for (const { file, doc } of docs) {
    for (const [id, job] of Object.entries(doc.jobs || {})) {
      for (const label of labelsOf(job)) {
        const going = LABELS.deprecated[label];
        if (going) t.diagnostic(`${file}: job ${id}: ${label} is deprecated, retires on ${going.retires}: use ${going.use}`);
      }
    }
  }
});

test('the release workflow tests every prebuild target', () => {
  const { doc } = workflows().find((w) => w.file === 'release.yml');
  const targets = matrixValues(doc.jobs.test.strategy.matrix, ['runner', 'target']).sort();
  const { TARGETS } = require('../../scripts/prebuild');
  assert.deepEqual(targets, Object.keys(TARGETS).sort());
  assert.deepEqual(doc.jobs.test.strategy.matrix.node.map(String), ['20', '22', '24', '26']);
});

test('the release workflow publishes with trusted publishing and provenance, without a token', () => {
  const { doc, text } = workflows().find((w) => w.file === 'release.yml');
  assert.doesNotMatch(text, /NPM_TOKEN|NODE_AUTH_TOKEN|_authToken|secrets\./, 'no long-lived token');
  const publishing = Object.entries(doc.jobs).filter(([, job]) =>
    (job.steps || []).some((s) => typeof s.run === 'string' && /\bnpm publish\b/.test(s.run)));
  assert.equal(publishing.length, 1, 'one job publishes');
  const [[id, job]] = publishing;
  assert.equal(job.permissions && job.permissions['id-token'], 'write', `job ${id}: id-token: write (OIDC)`);
  const publish = job.steps.find((s) => typeof s.run === 'string' && /\bnpm publish\b/.test(s.run));
  assert.match(publish.run, /--provenance/);
  assert.match(job.if || '', /refs\/tags\/v/, 'only from a tag');
  // the permissions of every other job stay read-only
  assert.deepEqual(doc.permissions, { contents: 'read' });
  for (const [other, j] of Object.entries(doc.jobs)) {
    if (other !== id) assert.equal(j.permissions, undefined, `job ${other} keeps the workflow's permissions`);
  }
});
