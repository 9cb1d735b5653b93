'use strict';
/**
 * Porter's Realm file reader for Node.js: a thin layer over the N-API addon porter.node
 * (src/porter_node.c), which calls the C library libporter.so (bindings/c/include/porter.h).
 *
 *   const porter = require('./bindings/node');
 *   const realm = porter.open('app.realm', { key: null });
 *   for (const dog of realm.objects('Dog', { query: 'age > 3' })) console.log(dog.name);
 *   realm.close();
 *
 * Objects are canonical Extended JSON documents parsed with JSON.parse (README.md says how to
 * decode the EJSON types). Every call is synchronous; failures throw PorterError.
 */
const fs = require('node:fs');
const path = require('node:path');
const { fileURLToPath } = require('node:url');

/** porter_status names by code (porter.h). */
const STATUS = Object.freeze({
  0: 'ok',
  1: 'invalid-argument',
  2: 'closed-handle',
  3: 'io',
  4: 'not-a-realm-file',
  5: 'not-found',
  6: 'usage',
  7: 'cancelled',
  8: 'invalid-data',
  9: 'other',
});

/**
 * A failure reported by the library: `code` (the porter_status number), `status` (its name, e.g.
 * 'not-a-realm-file') and, as `message`, the one-line message the `porter` command line prints
 * ("FILE: what went wrong", naming class, object and property where they apply).
 */
class PorterError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'PorterError';
    this.code = code;
    this.status = STATUS[code] || 'other';
  }
}

/** The addon: PORTER_NODE_ADDON, porter.node beside this file, or the build's .build/node. */
function loadAddon() {
  // An explicit PORTER_NODE_ADDON is the only place looked at: a wrong path is an error.
  const candidates = process.env.PORTER_NODE_ADDON
    ? [process.env.PORTER_NODE_ADDON]
    : [path.join(__dirname, 'porter.node'), path.join(__dirname, '..', '..', '.build', 'node', 'porter.node')];
  for (const candidate of candidates) {
    if (fs.existsSync(candidate)) return require(path.resolve(candidate));
  }
  throw new Error(
    `porter.node not found (looked at ${candidates.join(', ')}): build it with 'make test-node' or the ` +
      "cc command in bindings/node/README.md, or set PORTER_NODE_ADDON to its path",
  );
}

const native = loadAddon();
native.init(PorterError);
const ABI_VERSION = 1;
const version = native.version();
if (version.abi !== ABI_VERSION) {
  throw new Error(`libporter.so has ABI version ${version.abi}; this binding needs ${ABI_VERSION}`);
}

/** Cursor flags of porter.h by format name. */
const CURSOR_FORMATS = Object.freeze({ ejson: 0, 'ejson-canonical': 1, bson: 2, json: 3 });

/** The formats export() writes (porter export --format). */
const EXPORT_FORMATS = Object.freeze(['bson', 'json', 'ejson', 'ejson-canonical', 'csv', 'sqlite', 'realm']);

function toPath(value, what) {
  if (value instanceof URL) return fileURLToPath(value);
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string or a file: URL`);
  return value;
}

/** A key as given: null/undefined, a Buffer or Uint8Array, or a string of hex digits. */
function keyBytes(key) {
  if (key === undefined || key === null) return null;
  if (typeof key === 'string') {
    if (!/^([0-9a-fA-F]{2})*$/.test(key)) throw new TypeError('the key is not a string of hex digits');
    return Buffer.from(key, 'hex');
  }
  if (key instanceof Uint8Array) return key;
  throw new TypeError('the key must be a Buffer, a Uint8Array or a hex string of 64 bytes');
}

function options(value, what) {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object') throw new TypeError(`${what} must be an object`);
  return value;
}

/**
 * An iterator over one class's objects, reading them one at a time from the library. Its cursor
 * (a reader thread in the library) is closed at the end, by return() (a `break` out of for...of),
 * by close(), or when the iterator is garbage-collected.
 */
class ObjectIterator {
  #cursor;
  #convert;

  constructor(cursor, convert) {
    this.#cursor = cursor;
    this.#convert = convert;
  }

  [Symbol.iterator]() {
    return this;
  }

  next() {
    if (this.#cursor === null) return { done: true, value: undefined };
    let document;
    try {
      document = native.cursorNext(this.#cursor);
    } catch (error) {
      this.close();
      throw error;
    }
    if (document === null) {
      this.close();
      return { done: true, value: undefined };
    }
    return { done: false, value: this.#convert(document) };
  }

  return(value) {
    this.close();
    return { done: true, value };
  }

  /** Stops reading; later next() calls say done. */
  close() {
    if (this.#cursor !== null) {
      const cursor = this.#cursor;
      this.#cursor = null;
      native.cursorClose(cursor);
    }
  }

  /** Whether the cursor is still open (not at its end, not closed). */
  get open() {
    return this.#cursor !== null;
  }
}

/** An open Realm file, read-only. Close it with close(); every other method throws after that. */
class RealmFile {
  #handle;
  #key;

  constructor(filePath, key) {
    this.path = filePath;
    this.#key = key;
    this.#handle = native.open(filePath, key);
  }

  /** The schema as the schema-file JSON `porter schema FILE` prints, parsed. */
  get schema() {
    return JSON.parse(native.schema(this.#handle));
  }

  /** Every class's name in schema order (embedded classes included). */
  get classes() {
    return native.classes(this.#handle);
  }

  /** The number of objects of `className` (a Number; a BigInt beyond 2^53). */
  count(className) {
    return native.count(this.#handle, className);
  }

  #cursor(className, opts, allowBson, convertFor) {
    const { query = null, format = 'ejson-canonical' } = options(opts, 'the options');
    const flags = CURSOR_FORMATS[format];
    if (flags === undefined || (!allowBson && format === 'bson')) {
      const allowed = Object.keys(CURSOR_FORMATS).filter((f) => allowBson || f !== 'bson');
      throw new TypeError(`unknown object format '${format}' (one of ${allowed.join(', ')})`);
    }
    return new ObjectIterator(native.cursorOpen(this.#handle, className, query, flags), convertFor(format));
  }

  /**
   * The objects of the top-level class `className`, in object-key order (that of `porter export`),
   * each a parsed Extended JSON document: canonical by default ({"$numberLong": "1"}),
   * `format: 'ejson'` for relaxed, `'json'` for plain JSON typed by the schema (dates with
   * nanoseconds). `query`: a Realm Query Language predicate as `porter export --query` takes it.
   */
  objects(className, opts) {
    return this.#cursor(className, opts, false, () => JSON.parse);
  }

  /** As objects(), but each document as the exact text `porter export` writes (a string), or,
      with `format: 'bson'`, as one BSON document (a Buffer). */
  documents(className, opts) {
    return this.#cursor(className, opts, true, () => (document) => document);
  }

  /**
   * Writes the file to `out` as `porter export FILE --out OUT --format FORMAT` does (folders for
   * bson/json/ejson/ejson-canonical/csv, one file for sqlite and realm), atomically.
   * `onProgress(done, total)` is called before the first object, every 256 objects and at the end;
   * returning `false` cancels (PorterError with status 'cancelled'; nothing is left behind), and an
   * exception thrown by it cancels too and propagates.
   */
  export(out, opts) {
    const { format = 'ejson', onProgress = null } = options(opts, 'the options');
    native.exportTo(this.#handle, toPath(out, 'the output path'), format, onProgress);
  }

  /** inspect() of this file with its key. */
  inspect() {
    return inspect(this.path, { key: this.#key });
  }

  /** check() of this file with its key. */
  check() {
    return check(this.path, { key: this.#key });
  }

  /** Closes the file; a second close does nothing. Iterators already made keep reading. */
  close() {
    native.close(this.#handle);
  }
}

if (typeof Symbol.dispose === 'symbol') {
  RealmFile.prototype[Symbol.dispose] = RealmFile.prototype.close;
  ObjectIterator.prototype[Symbol.dispose] = ObjectIterator.prototype.close;
}

/** Opens the Realm file at `path` read-only; `key`: the 64-byte key of an encrypted file. */
function open(filePath, opts) {
  const { key = null } = options(opts, 'the options');
  return new RealmFile(toPath(filePath, 'the path'), keyBytes(key));
}

/** The report `porter check --json FILE` prints, parsed; made for files that do not open too. */
function check(filePath, opts) {
  const { key = null } = options(opts, 'the options');
  return JSON.parse(native.check(toPath(filePath, 'the path'), keyBytes(key)));
}

/** The forensic summary (`porter inspect --json`), parsed: format, SDK era, top refs, classes,
    or the reason the file does not open. */
function inspect(filePath, opts) {
  const { key = null } = options(opts, 'the options');
  return JSON.parse(native.inspect(toPath(filePath, 'the path'), keyBytes(key)));
}

module.exports = {
  open,
  check,
  inspect,
  PorterError,
  RealmFile,
  ObjectIterator,
  STATUS,
  EXPORT_FORMATS,
  ABI_VERSION,
  version: version.version,
};
