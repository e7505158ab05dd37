'use strict';
// A self-signed certificate for localhost and 127.0.0.1, valid two days, made
// with openssl for a TLS test (test/install/server-tls.test.js,
// test/server/tls.test.js): { key, cert }, PEM Buffers. newKey: openssl's
// key options (an RSA key by default).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

function selfSigned(newKey = ['-newkey', 'rsa:2048']) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'llhttp-napi-tls-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', ...newKey, '-nodes', '-sha256', '-days', '2',
      '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    return { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { selfSigned };
