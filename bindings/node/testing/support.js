'use strict';
/**
 * What the tests in ../test share: where the porter binary, the fixtures and the shared Realm
 * files are (set by `make test-node`; defaults: the repository's debug build and folders), the
 * keys of the encrypted test files, and `porter` run as a child process. (Kept outside test/, where
 * `node --test` would run it as a test file.)
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const PORTER_BINARY = process.env.PORTER_BINARY || path.join(ROOT, '.build', 'debug', 'porter');
const FIXTURES = process.env.PORTER_FIXTURES || path.join(ROOT, 'Fixtures', 'realm');
const SHARED = process.env.PORTER_SHARED || path.join(ROOT, '..', 'shared', 'realm-files');

/** The keys of the encrypted test files (Fixtures/realm/README.md, ../shared/realm-files/README.md). */
const KEY_0_63 = Buffer.from(Array.from({ length: 64 }, (_, i) => i));
const KEY_100_163 = Buffer.from(Array.from({ length: 64 }, (_, i) => 100 + i));
const KEYS = {
  'every-type-encrypted.realm': KEY_100_163,
  'column-migration-encrypted.realm': KEY_100_163,
  'links-encrypted.realm': KEY_0_63,
  'dev-encrypted-realm-docs.realm': KEY_0_63,
};

function keyFor(file) {
  return KEYS[path.basename(file)] || null;
}

function keyArgs(key) {
  return key ? ['--encryption-key', Buffer.from(key).toString('hex')] : [];
}

/** `porter ARGS`: {status, stdout, stderr}. */
function porter(...args) {
  const result = spawnSync(PORTER_BINARY, args.map(String), { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (result.error) throw result.error;
  return result;
}

/** The lines `porter export FILE --class C --format F --out -` writes (it must succeed). */
function cliDocuments(file, key, className, { format = 'ejson-canonical', query } = {}) {
  const args = ['export', file, ...keyArgs(key), '--format', format, '--class', className, '--out', '-', '--quiet'];
  if (query !== undefined) args.push('--query', query);
  const result = porter(...args);
  if (result.status !== 0) throw new Error(`porter ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
  return result.stdout.split('\n').filter((line) => line.length > 0);
}

/** The *.realm files of `folder` (sorted); with `recursive`, of its subfolders too. */
function realmFiles(folder, recursive = false) {
  const found = [];
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory() && recursive) found.push(...realmFiles(full, true));
    else if (entry.isFile() && entry.name.endsWith('.realm')) found.push(full);
  }
  return found.sort();
}

/** A fresh temporary folder, removed by the returned cleanup function. */
function scratch() {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'porter-node-test-'));
  return { folder, cleanup: () => fs.rmSync(folder, { recursive: true, force: true }) };
}

module.exports = {
  ROOT,
  PORTER_BINARY,
  FIXTURES,
  SHARED,
  KEY_0_63,
  KEY_100_163,
  keyFor,
  keyArgs,
  porter,
  cliDocuments,
  realmFiles,
  scratch,
};
