'use strict';
/**
 * Every Realm file of Fixtures/realm (and written/, column-migration/) and, when present, of
 * ../shared/realm-files (and its legacy/ subfolders) read through the Node binding and compared,
 * object by object, with `porter export FILE --format ejson-canonical` of the same file (deep
 * equality of the parsed documents, and the exact text too). A file the binding refuses must be
 * refused by `porter export` with the same one-line message.
 */
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');

const porter = require('..');
const { FIXTURES, SHARED, keyFor, keyArgs, porter: cli, realmFiles, scratch } = require('../testing/support');

/** `porter export FILE --class C --format ejson-canonical --out -`: its lines, and its one-line
    error message (without "porter: error: ") when it failed. */
function cliClass(file, key, className) {
  const result = cli('export', file, ...keyArgs(key), '--format', 'ejson-canonical', '--class', className, '--out', '-', '--quiet');
  const lines = result.stdout.split('\n').filter((line) => line.length > 0);
  if (result.status === 0) return { lines, error: null };
  const line = result.stderr.split('\n').find((l) => l.startsWith('porter: error: '));
  return { lines, error: line ? line.slice('porter: error: '.length) : result.stderr.trim() };
}

/** Compares one file; returns {objects, classes} compared, or {refused: message}. */
function compareFile(file) {
  const key = keyFor(file);
  let realm;
  try {
    realm = porter.open(file, { key });
  } catch (error) {
    assert.ok(error instanceof porter.PorterError, `${file}: ${error}`);
    assert.ok(error.message.includes(file), `the message does not name the file: ${error.message}`);
    const { folder, cleanup } = scratch();
    try {
      const out = path.join(folder, 'out');
      const result = cli('export', file, ...keyArgs(key), '--format', 'ejson-canonical', '--out', out, '--quiet');
      assert.notEqual(result.status, 0, `${file}: the binding refused (${error.message}) but porter export read it`);
      assert.ok(
        result.stderr.split('\n').includes(`porter: error: ${error.message}`),
        `${file}: porter export refused it with another message:\n  binding: ${error.message}\n  porter:  ${result.stderr.trim()}`,
      );
      assert.ok(!fs.existsSync(out), `porter export left ${out}`);
    } finally {
      cleanup();
    }
    return { refused: error.message };
  }
  let objects = 0;
  let classes = 0;
  try {
    const schema = realm.schema;
    assert.deepEqual(schema, JSON.parse(cli('schema', file, ...keyArgs(key)).stdout), `${file}: schema`);
    assert.deepEqual(realm.classes, schema.classes.map((c) => c.name), `${file}: classes`);
    for (const { name, embedded } of schema.classes) {
      if (embedded) {
        // Embedded objects are exported inside their parents: both refuse the class alone.
        assert.throws(() => realm.objects(name), (e) => e instanceof porter.PorterError && e.status === 'usage');
        const result = cli('export', file, ...keyArgs(key), '--format', 'ejson-canonical', '--class', name, '--out', '-');
        assert.notEqual(result.status, 0, `${file} ${name}: porter export wrote an embedded class`);
        assert.equal(result.stdout, '');
        continue;
      }
      const { lines, error: cliError } = cliClass(file, key, name);
      const expected = lines.map((line) => JSON.parse(line));
      const read = [];
      let error = null;
      try {
        for (const object of realm.objects(name)) read.push(object);
      } catch (thrown) {
        error = thrown;
      }
      for (let i = 0; i < Math.max(read.length, expected.length); i++) {
        assert.deepStrictEqual(read[i], expected[i], `${file} ${name} #${i}: the binding's object differs from porter export's`);
      }
      assert.equal(read.length, expected.length, `${file} ${name}: object count`);
      if (cliError !== null || error !== null) {
        // A class porter export cannot write (a date beyond BSON's range, a damaged table): the
        // binding fails too, after the same objects, with the same message.
        assert.ok(error instanceof porter.PorterError, `${file} ${name}: porter export failed (${cliError}) but the binding read it: ${error}`);
        assert.equal(error.message, cliError, `${file} ${name}: the binding's message differs from porter export's`);
        continue;
      }
      assert.deepStrictEqual(Array.from(realm.documents(name)), lines, `${file} ${name}: the documents' text`);
      assert.equal(realm.count(name), read.length, `${file} ${name}: count()`);
      objects += read.length;
      classes += 1;
    }
  } finally {
    realm.close();
  }
  return { objects, classes };
}

/** One subtest per file of `folders`; the totals as a diagnostic line. */
async function compareFolders(t, folders) {
  const totals = { files: 0, read: 0, classes: 0, objects: 0, refused: 0 };
  for (const { folder, recursive } of folders) {
    for (const file of realmFiles(folder, recursive)) {
      totals.files += 1;
      await t.test(path.relative(path.dirname(folders[0].folder), file), () => {
        const result = compareFile(file);
        if (result.refused !== undefined) {
          totals.refused += 1;
        } else {
          totals.read += 1;
          totals.objects += result.objects;
          totals.classes += result.classes;
        }
      });
    }
  }
  const failed = totals.files - totals.read - totals.refused;
  t.diagnostic(
    `${totals.files} files: ${totals.read} read, their ${totals.classes} classes' ${totals.objects} objects equal to ` +
      `porter export's; ${totals.refused} refused with porter export's message; ${failed} failed`,
  );
  return totals.files;
}

test('every Fixtures/realm file equals porter export --format ejson-canonical', async (t) => {
  const files = await compareFolders(t, [
    { folder: FIXTURES },
    { folder: path.join(FIXTURES, 'written') },
    { folder: path.join(FIXTURES, 'column-migration') },
  ]);
  assert.ok(files > 20, `only ${files} Realm files found in ${FIXTURES}`);
});

test('every ../shared/realm-files file equals porter export --format ejson-canonical', async (t) => {
  if (!fs.existsSync(SHARED)) {
    t.skip(`the shared Realm files are not on this machine (${SHARED})`);
    return;
  }
  const files = await compareFolders(t, [{ folder: SHARED }]);
  assert.ok(files > 0, `no Realm file found in ${SHARED}`);
});

test('every ../shared/realm-files/legacy file (old formats) equals porter export --format ejson-canonical', async (t) => {
  const legacy = path.join(SHARED, 'legacy');
  if (!fs.existsSync(legacy)) {
    t.skip(`the shared legacy Realm files are not on this machine (${legacy})`);
    return;
  }
  const files = await compareFolders(t, [{ folder: legacy, recursive: true }]);
  assert.ok(files > 0, `no Realm file found in ${legacy}`);
});
