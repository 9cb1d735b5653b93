'use strict';
/**
 * The Node binding's API: keys, queries, exports (against `porter export`), progress and
 * cancellation, the check and inspect reports, iterators and their cursors, use after close, bad
 * arguments, and the garbage collector's finalizers.
 */
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');
const { test } = require('node:test');

const porter = require('..');
const { FIXTURES, KEY_0_63, KEY_100_163, keyArgs, porter: cli, cliDocuments, scratch } = require('../testing/support');

const EVERY = path.join(FIXTURES, 'every-type.realm');
const ENCRYPTED = path.join(FIXTURES, 'every-type-encrypted.realm');

/** Asserts that `fn` throws PorterError with `status` and a message containing every word. */
function throwsPorter(fn, status, ...words) {
  assert.throws(fn, (error) => {
    assert.ok(error instanceof porter.PorterError, `not a PorterError: ${error}`);
    assert.equal(error.status, status, `status ${error.status} (${error.code}): ${error.message}`);
    assert.equal(error.code, Object.keys(porter.STATUS).find((code) => porter.STATUS[code] === status) * 1);
    for (const word of words) assert.ok(error.message.includes(word), `'${word}' not in: ${error.message}`);
    return true;
  });
}

/** Every file below `folder` (relative path -> bytes as base64), for comparing two export folders. */
function tree(folder, prefix = '') {
  const files = {};
  for (const entry of fs.readdirSync(path.join(folder, prefix), { withFileTypes: true })) {
    const relative = path.join(prefix, entry.name);
    if (entry.isDirectory()) Object.assign(files, tree(folder, relative));
    else files[relative] = fs.readFileSync(path.join(folder, relative)).toString('base64');
  }
  return files;
}

test('the library and the binding agree on the ABI version', () => {
  assert.equal(porter.ABI_VERSION, 1);
  assert.match(porter.version, /^\d+\.\d+/);
});

test('an encrypted fixture reads with its key and fails with a wrong one or none', () => {
  const realm = porter.open(ENCRYPTED, { key: KEY_100_163 });
  try {
    const expected = cliDocuments(ENCRYPTED, KEY_100_163, 'Every').map((line) => JSON.parse(line));
    assert.ok(expected.length > 0);
    assert.deepStrictEqual(Array.from(realm.objects('Every')), expected);
  } finally {
    realm.close();
  }
  // The key as 128 hex digits and as a Uint8Array reads too.
  const hex = porter.open(ENCRYPTED, { key: KEY_100_163.toString('hex') });
  assert.equal(hex.count('Every'), porter.open(ENCRYPTED, { key: new Uint8Array(KEY_100_163) }).count('Every'));
  hex.close();
  throwsPorter(() => porter.open(ENCRYPTED, { key: KEY_0_63 }), 'not-a-realm-file', ENCRYPTED, 'key');
  throwsPorter(() => porter.open(ENCRYPTED), 'not-a-realm-file', ENCRYPTED, 'encrypt');
  throwsPorter(() => porter.open(EVERY, { key: KEY_0_63 }), 'usage', 'not encrypted');
  throwsPorter(() => porter.open(ENCRYPTED, { key: KEY_100_163.subarray(0, 16) }), 'usage');
  // An empty key is a mistake, not "no key" (which the library would make of it).
  assert.throws(() => porter.open(ENCRYPTED, { key: Buffer.alloc(0) }), RangeError);
  assert.throws(() => porter.open(ENCRYPTED, { key: '' }), RangeError);
});

test('missing, foreign and empty files are refused with the file named', () => {
  const { folder, cleanup } = scratch();
  try {
    throwsPorter(() => porter.open(path.join(folder, 'missing.realm')), 'io', path.join(folder, 'missing.realm'), 'no such file');
    throwsPorter(() => porter.open(folder), 'io', 'folder');
    const notes = path.join(folder, 'notes.realm');
    fs.writeFileSync(notes, '{"not": "a realm file"}');
    throwsPorter(() => porter.open(notes), 'not-a-realm-file', notes, 'JSON');
    const empty = path.join(folder, 'empty.realm');
    fs.writeFileSync(empty, '');
    throwsPorter(() => porter.open(empty), 'not-a-realm-file', 'empty');
    const truncated = path.join(folder, 'truncated.realm');
    const bytes = fs.readFileSync(EVERY);
    fs.writeFileSync(truncated, bytes.subarray(0, bytes.length / 2));
    assert.throws(() => porter.open(truncated), porter.PorterError);
    assert.equal(porter.check(truncated).ok, false);
    const summary = porter.inspect(truncated);
    assert.equal(summary.readable, false);
    assert.ok(summary.reason);
  } finally {
    cleanup();
  }
});

test('queries equal porter export --query; bad queries and classes throw', () => {
  const realm = porter.open(EVERY);
  try {
    for (const query of ['_id > 1', "string BEGINSWITH 'a' OR intOpt == nil", 'FALSEPREDICATE']) {
      const expected = cliDocuments(EVERY, null, 'Every', { query });
      assert.deepStrictEqual(Array.from(realm.documents('Every', { query })), expected, query);
      assert.deepStrictEqual(Array.from(realm.objects('Every', { query })), expected.map((l) => JSON.parse(l)), query);
    }
    assert.equal(Array.from(realm.objects('Every', { query: 'FALSEPREDICATE' })).length, 0);
    throwsPorter(() => realm.objects('Every', { query: '_id >' }), 'usage', 'query');
    throwsPorter(() => realm.objects('Every', { query: 'noSuchProperty == 1' }), 'usage');
    throwsPorter(() => realm.objects('Emb'), 'usage', 'embedded');
    throwsPorter(() => realm.objects('NoSuchClass'), 'not-found');
    throwsPorter(() => realm.count('NoSuchClass'), 'not-found');
    // Relaxed Extended JSON and plain JSON are porter export's too.
    assert.deepStrictEqual(Array.from(realm.documents('Every', { format: 'ejson' })), cliDocuments(EVERY, null, 'Every', { format: 'ejson' }));
    assert.deepStrictEqual(Array.from(realm.documents('Every', { format: 'json' })), cliDocuments(EVERY, null, 'Every', { format: 'json' }));
    // BSON: one length-prefixed document per object.
    const bson = Array.from(realm.documents('Every', { format: 'bson' }));
    assert.equal(bson.length, realm.count('Every'));
    for (const document of bson) {
      assert.ok(Buffer.isBuffer(document));
      assert.equal(document.readInt32LE(0), document.length);
      assert.equal(document[document.length - 1], 0);
    }
  } finally {
    realm.close();
  }
});

for (const format of ['ejson-canonical', 'ejson', 'json', 'bson', 'csv']) {
  test(`export --format ${format} writes what porter export writes, with progress`, () => {
    const { folder, cleanup } = scratch();
    try {
      const calls = [];
      const realm = porter.open(ENCRYPTED, { key: KEY_100_163 });
      realm.export(path.join(folder, 'lib'), { format, onProgress: (done, total) => calls.push([done, total]) });
      realm.close();
      const result = cli('export', ENCRYPTED, ...keyArgs(KEY_100_163), '--format', format, '--out', path.join(folder, 'cli'), '--quiet');
      assert.equal(result.status, 0, result.stderr);
      const lib = tree(path.join(folder, 'lib'));
      assert.ok(Object.keys(lib).length > 1);
      assert.deepStrictEqual(lib, tree(path.join(folder, 'cli')));
      assert.ok(calls.length >= 2, `${calls.length} progress calls`);
      const [done, total] = calls[calls.length - 1];
      assert.ok(total > 0 && done === total, `last progress ${done} of ${total}`);
      assert.deepStrictEqual(calls[0], [0, total]);
    } finally {
      cleanup();
    }
  });
}

test('export to sqlite and realm; refused over an existing file; cancelled leaves nothing', () => {
  const { folder, cleanup } = scratch();
  const realm = porter.open(EVERY);
  try {
    const sqlite = path.join(folder, 'out.sqlite');
    realm.export(sqlite, { format: 'sqlite' });
    assert.equal(fs.readFileSync(sqlite).subarray(0, 16).toString('latin1'), 'SQLite format 3\0');
    throwsPorter(() => realm.export(sqlite, { format: 'sqlite' }), 'io', 'already exists');
    const copy = path.join(folder, 'out.realm');
    realm.export(copy, { format: 'realm' });
    const reopened = porter.open(copy);
    assert.deepStrictEqual(Array.from(reopened.documents('Every')), Array.from(realm.documents('Every')));
    reopened.close();
    throwsPorter(() => realm.export(copy, { format: 'realm' }), 'io', 'already exists');
    // onProgress returning false cancels: PorterError 'cancelled', nothing written.
    for (const format of ['bson', 'json', 'sqlite', 'csv']) {
      const out = path.join(folder, `cancelled-${format}`);
      let calls = 0;
      throwsPorter(() => realm.export(out, { format, onProgress: () => (calls++, false) }), 'cancelled');
      assert.equal(calls, 1);
      assert.ok(!fs.existsSync(out), `a cancelled ${format} export left ${out}`);
    }
    // An exception thrown by onProgress cancels too and reaches the caller unchanged.
    const raised = path.join(folder, 'raised');
    const stop = new RangeError('stop here');
    assert.throws(() => realm.export(raised, { format: 'bson', onProgress: () => { throw stop; } }), (e) => e === stop);
    assert.ok(!fs.existsSync(raised));
    // Returning anything but false goes on.
    const onward = path.join(folder, 'onward');
    realm.export(onward, { format: 'json', onProgress: () => undefined });
    assert.ok(fs.existsSync(onward));
    throwsPorter(() => realm.export(path.join(folder, 'y'), { format: 'yaml' }), 'invalid-argument', 'yaml');
    assert.deepStrictEqual(fs.readdirSync(folder).sort(), ['onward', 'out.realm', 'out.sqlite']);
  } finally {
    realm.close();
    cleanup();
  }
});

test('check and inspect equal the command line', () => {
  const report = porter.check(EVERY);
  assert.deepStrictEqual(report, JSON.parse(cli('check', '--json', EVERY).stdout));
  assert.equal(report.ok, true);
  const summary = porter.inspect(EVERY);
  assert.equal(summary.readable, true);
  assert.equal(summary.fileFormat, 24);
  assert.equal(summary.header.topRefs.length, 2);
  assert.ok(summary.classes.find((c) => c.name === 'Every').objects > 0);
  const locked = porter.inspect(ENCRYPTED);
  assert.equal(locked.readable, false);
  assert.equal(locked.diagnosis, 'encrypted-no-key');
  const unlocked = porter.inspect(ENCRYPTED, { key: KEY_100_163 });
  assert.equal(unlocked.readable, true);
  assert.equal(unlocked.encrypted, true);
  const realm = porter.open(ENCRYPTED, { key: KEY_100_163 });
  assert.equal(realm.check().ok, true);
  assert.equal(realm.inspect().encrypted, true);
  realm.close();
  throwsPorter(() => porter.check(path.join(FIXTURES, 'no-such.realm')), 'io', 'no-such.realm');
});

test('iterators close their cursor at the end, on break and on close(), and outlive their file', () => {
  const realm = porter.open(EVERY);
  const all = realm.count('Every');
  assert.ok(all >= 2);
  const finished = realm.objects('Every');
  assert.equal(Array.from(finished).length, all);
  assert.equal(finished.open, false);
  assert.deepStrictEqual(finished.next(), { done: true, value: undefined });
  const broken = realm.objects('Every');
  for (const object of broken) {
    assert.ok(object._id);
    break;
  }
  assert.equal(broken.open, false, 'break did not close the cursor');
  assert.deepStrictEqual(broken.next(), { done: true, value: undefined });
  const outliving = realm.objects('Every');
  assert.ok(outliving.next().value._id);
  realm.close();
  assert.equal(Array.from(outliving).length, all - 1);
  const closed = porter.open(EVERY).objects('Every');
  closed.close();
  closed.close();
  assert.equal(closed.next().done, true);
});

test('use after close throws PorterError closed-handle; a second close does nothing', () => {
  const realm = porter.open(EVERY);
  realm.close();
  realm.close();
  throwsPorter(() => realm.count('Every'), 'closed-handle', 'closed');
  throwsPorter(() => realm.schema, 'closed-handle');
  throwsPorter(() => realm.classes, 'closed-handle');
  throwsPorter(() => realm.objects('Every'), 'closed-handle');
  throwsPorter(() => realm.export('/tmp/never-written', { format: 'json' }), 'closed-handle');
  assert.ok(!fs.existsSync('/tmp/never-written'));
});

test('bad arguments throw TypeError or PorterError, never crash', () => {
  assert.throws(() => porter.open(42), TypeError);
  assert.throws(() => porter.open(undefined), TypeError);
  assert.throws(() => porter.open(`${EVERY}\0.txt`), TypeError);
  assert.throws(() => porter.open(EVERY, { key: {} }), TypeError);
  assert.throws(() => porter.open(EVERY, { key: 'not hex' }), TypeError);
  assert.throws(() => porter.open(EVERY, { key: [1, 2, 3] }), TypeError);
  assert.throws(() => porter.open(EVERY, 'options'), TypeError);
  assert.throws(() => porter.check(EVERY, { key: 12 }), TypeError);
  const realm = porter.open(EVERY);
  try {
    assert.throws(() => realm.count(7), TypeError);
    assert.throws(() => realm.count('Every\0'), TypeError);
    assert.throws(() => realm.objects(null), TypeError);
    assert.throws(() => realm.objects('Every', { query: 5 }), TypeError);
    assert.throws(() => realm.objects('Every', { format: 'yaml' }), TypeError);
    assert.throws(() => realm.objects('Every', { format: 'bson' }), TypeError);
    assert.throws(() => realm.export(null, { format: 'json' }), TypeError);
    assert.throws(() => realm.export('/tmp/x', { format: 3 }), TypeError);
    assert.throws(() => realm.export('/tmp/x', { format: 'json', onProgress: 'no' }), TypeError);
    assert.throws(() => realm.export('/tmp/x', 'json'), TypeError);
  } finally {
    realm.close();
  }
  // The addon itself: handles of the wrong kind or made up are refused by their type tag.
  const native = require(process.env.PORTER_NODE_ADDON || path.join(__dirname, '..', '..', '..', '.build', 'node', 'porter.node'));
  const file = native.open(EVERY, null);
  const cursor = native.cursorOpen(file, 'Every', null, 1);
  assert.throws(() => native.cursorNext(file), TypeError);
  assert.throws(() => native.count(cursor, 'Every'), TypeError);
  assert.throws(() => native.count({}, 'Every'), TypeError);
  assert.throws(() => native.count(undefined, 'Every'), TypeError);
  assert.throws(() => native.cursorNext(0x7e570010), TypeError);
  assert.throws(() => native.cursorOpen(file, 'Every', null, 'canonical'), TypeError);
  throwsPorter(() => native.cursorOpen(file, 'Every', null, 4), 'invalid-argument');
  assert.equal(typeof native.cursorNext(cursor), 'string');
  assert.equal(native.cursorClose(cursor), true);
  assert.equal(native.cursorClose(cursor), false);
  throwsPorter(() => native.cursorNext(cursor), 'closed-handle');
  assert.equal(native.close(file), true);
  assert.equal(native.close(file), false);
});

test('the garbage collector closes files and cursors left open, and only those', async () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  const descriptors = () => fs.readdirSync('/proc/self/fd').length;
  const collect = async () => {
    for (let i = 0; i < 4; i++) {
      gc();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await collect();
  const before = descriptors();
  (() => {
    for (let i = 0; i < 20; i++) {
      const realm = porter.open(EVERY);
      const open = realm.objects('Every');
      open.next(); // a cursor left open, its reader thread holding descriptors
      const closed = realm.objects('Every');
      closed.close(); // closed by hand: the finalizer must not close it again
      if (i % 2) realm.close();
    }
  })();
  const during = descriptors();
  assert.ok(during > before, `20 open cursors hold no descriptor (${before} -> ${during})`);
  await collect();
  const after = descriptors();
  assert.ok(after <= before + 2, `descriptors ${before} before, ${during} with 20 cursors, ${after} after collection`);
  // Everything still works after the finalizers ran.
  const realm = porter.open(EVERY);
  assert.equal(Array.from(realm.objects('Every')).length, realm.count('Every'));
  realm.close();
});
