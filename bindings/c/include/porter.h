/*
 * porter.h: Porter's Realm file reader as a C library (libporter.so, libporter.a).
 *
 * C99. Reads Realm Core files of file formats 20-24 (Realm Swift 10.0 and later, Realm Kotlin,
 * realm-js, realm-dart, Realm .NET), encrypted or not, natively: no realm-core, no lock file,
 * nothing written beside the file. Read-only: no function here ever writes the Realm file it reads.
 * The same Swift code as the `porter` command line does the work, so every object reads, every
 * export writes and every error message says what `porter` says for the same file.
 *
 * ABI PROMISE
 *   porter_abi_version() returns PORTER_ABI_VERSION of the header the library was built with.
 *   Within one ABI version: no function is removed or changes its signature or meaning, status
 *   codes keep their numbers, JSON documents only gain members (never lose or rename one), and
 *   Extended JSON text of an object stays what `porter export --format ejson[-canonical]` writes.
 *   Functions may be added. A program should check porter_abi_version() == PORTER_ABI_VERSION
 *   at start-up. (realm-core's realm.h, the model for these habits, promises no stability across
 *   releases; Porter does, per ABI version.)
 *
 * STATUS AND ERRORS
 *   Every function returning int returns 0 (PORTER_OK) on success and a porter_status code on
 *   failure; nothing ever aborts or throws across the boundary, whatever the input: NULL pointers,
 *   closed or unknown handles, damaged, truncated or hostile files, wrong keys.
 *   After a failure, porter_last_error() gives the one-line message the command line prints
 *   ("FILE: what went wrong", naming class, object and property where they apply) and
 *   porter_error_code() the code. Both are recorded for the calling thread and, when the call
 *   was made on a live handle, for that handle. A successful call does not clear them.
 *
 * OWNERSHIP
 *   Handles (porter_file *, porter_cursor *) are opaque and owned by the library until closed
 *   with porter_close() / porter_cursor_close(). They are never real addresses: a closed handle
 *   passed again is refused with PORTER_ERR_CLOSED_HANDLE, never dereferenced.
 *   EVERY buffer the library returns (char **out parameters, porter_last_error()) is allocated
 *   by the library and owned by the caller, who releases it with porter_free() exactly once.
 *   Returned text is UTF-8 and NUL-terminated; the length out parameter counts bytes without the
 *   NUL (BSON documents contain NULs: use the length). The one exception is porter_version(),
 *   a static string that must not be freed.
 *
 * THREADS
 *   Every function may be called from any thread. Calls on one handle are serialized by the
 *   handle (a second thread waits; it never sees a half-done call). Different handles, including
 *   several handles on one file, work in parallel. A cursor reads its own copy of the file on a
 *   thread of its own, so it neither blocks nor is blocked by calls on its file handle, and stays
 *   valid after its file handle is closed. porter_close() waits for a call still running on the
 *   handle on another thread. The progress callback of porter_export() runs on the calling thread.
 *   Global state: the handle table and each thread's last error; nothing else (no signal handler,
 *   no environment variable, no file outside the paths given).
 *
 * MEMORY
 *   Objects stream: a cursor holds at most about 1 MiB of encoded documents ahead of the reader,
 *   whatever the size of the class; an export streams as `porter export` does.
 */
#ifndef PORTER_H
#define PORTER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The ABI version this header describes. */
#define PORTER_ABI_VERSION 1

/** Status codes: 0 is success; the numbers never change within an ABI version. */
typedef enum porter_status {
    PORTER_OK = 0,
    /** A NULL pointer, an out-of-range index, unknown flags, a handle of the wrong kind. */
    PORTER_ERR_INVALID_ARGUMENT = 1,
    /** The handle was closed already, or never came from this library. */
    PORTER_ERR_CLOSED_HANDLE = 2,
    /** A file is missing, is a folder, cannot be read or written, or an output exists already. */
    PORTER_ERR_IO = 3,
    /** Not a readable Realm file: foreign, empty, truncated, damaged, missing or wrong key,
        another core's format (porter_check_json() and porter_inspect_json() say which). */
    PORTER_ERR_NOT_A_REALM_FILE = 4,
    /** No such class. */
    PORTER_ERR_NOT_FOUND = 5,
    /** The request does not fit the file: a query's syntax or property, a key given to a plain
        file, a key that is not 64 bytes, an embedded class asked for at the top level. */
    PORTER_ERR_USAGE = 6,
    /** The progress callback asked to stop; nothing was written. */
    PORTER_ERR_CANCELLED = 7,
    /** A stored value that cannot be written as asked. */
    PORTER_ERR_INVALID_DATA = 8,
    /** Anything else (out of memory, an internal error). */
    PORTER_ERR_OTHER = 9
} porter_status;

/** An open Realm file (opaque). */
typedef struct porter_file porter_file;
/** A cursor over one class's objects (opaque). */
typedef struct porter_cursor porter_cursor;

/**
 * porter_open() flags: read without `porter check`'s checks first (the command line's
 * `--skip-check`). Without it, the first porter_cursor_open() or porter_export() on a handle runs
 * the checks `porter export` runs before it copies a file (once per handle: they walk the whole
 * file) and refuses a file that fails them with the message `porter export` prints ("refused: the
 * file fails its check: …", PORTER_ERR_NOT_A_REALM_FILE), so that a damaged file is never copied
 * into something that looks sound. With it, a cursor or an export reads on and fails at the first
 * damaged object it meets (forensic reading of what remains; porter_check_json() lists the damage).
 */
#define PORTER_OPEN_SKIP_CHECK 1u

/** Cursor flags: each object as relaxed Extended JSON (`porter export --format ejson`). */
#define PORTER_CURSOR_EJSON_RELAXED 0u
/** Cursor flags: each object as canonical Extended JSON (`--format ejson-canonical`). */
#define PORTER_CURSOR_EJSON_CANONICAL 1u
/** Cursor flags: each object as one BSON document (`--format bson`). */
#define PORTER_CURSOR_BSON 2u
/** Cursor flags: each object as plain JSON typed by the schema (`--format json`): dates keep
    their nanoseconds (Extended JSON and BSON hold milliseconds), other types their JSON forms. */
#define PORTER_CURSOR_JSON 3u

/**
 * Progress of porter_export(): `done` objects written of `total` (0 when unknown). Return 0 to
 * go on, nonzero to cancel (the export stops within one object, removes what it staged, and
 * returns PORTER_ERR_CANCELLED). Called with 0 before the first object, every 256 objects, and
 * once at the end. Runs on the thread that called porter_export(); it may call other porter_*
 * functions, on this handle too.
 */
typedef int (*porter_progress_fn)(uint64_t done, uint64_t total, void *context);

/** PORTER_ABI_VERSION of the library as built. */
uint32_t porter_abi_version(void);

/** Porter's version, e.g. "0.9.0". Static: do NOT pass it to porter_free(). */
const char *porter_version(void);

/** Frees a buffer the library returned. NULL is allowed (nothing happens). */
void porter_free(void *buffer);

/**
 * Opens the Realm file at `path` read-only into `*file`.
 * `key`, `key_length`: the 64-byte key of an encrypted file; NULL and 0 for a plain file.
 * `flags`: 0, or PORTER_OPEN_SKIP_CHECK (others are refused).
 * On failure `*file` is set to NULL; the message says why the file does not open: no such file,
 * not a Realm file (and what it is instead), encrypted and no key, wrong key, truncated, damaged
 * (where), written by an older or newer core, a Porter database.
 */
int porter_open(const char *path, const uint8_t *key, size_t key_length, uint32_t flags, porter_file **file);

/** Closes a file handle (cursors opened on it stay valid). A second close fails with
    PORTER_ERR_CLOSED_HANDLE. */
int porter_close(porter_file *file);

/**
 * The message of the last failure on `handle` (a porter_file * or porter_cursor *, cast), or,
 * when `handle` is NULL, closed, or had no failure, of the calling thread's last failure.
 * Returns NULL when there is none. Free the result with porter_free().
 */
char *porter_last_error(const void *handle);

/** The porter_status of the failure porter_last_error() describes; PORTER_OK when none. */
int porter_error_code(const void *handle);

/**
 * The schema as the schema-file JSON `porter schema FILE` prints (rebuilt from the file: classes,
 * properties, types, primary keys, indexes, embedded classes). Free `*json` with porter_free().
 * `length` may be NULL.
 */
int porter_schema_json(porter_file *file, char **json, size_t *length);

/** The number of classes of the schema (embedded classes included), into `*count`. */
int porter_class_count(porter_file *file, size_t *count);

/** The name of class `index` (0 ≤ index < porter_class_count), in schema order. Free `*name`
    with porter_free(). */
int porter_class_name(porter_file *file, size_t index, char **name);

/** The number of objects of `class_name`, into `*count`. PORTER_ERR_NOT_FOUND for no such class. */
int porter_object_count(porter_file *file, const char *class_name, uint64_t *count);

/**
 * Opens a cursor over the objects of the top-level class `class_name`, in object-key order (the
 * order of `porter export`), optionally filtered by `query`, a Realm Query Language predicate as
 * `porter export --query` and Realm's `Results.filter` take it (NULL: every object), e.g.
 * "age > 3 AND owner.name BEGINSWITH[c] 'a'". `flags`: PORTER_CURSOR_EJSON_RELAXED,
 * PORTER_CURSOR_EJSON_CANONICAL, PORTER_CURSOR_BSON or PORTER_CURSOR_JSON.
 * Each object is the document `porter export --class class_name --format ejson|ejson-canonical|bson|json`
 * writes: embedded objects nested, links to objects as the target's primary key (or `_key`, its
 * object key, for a class without one), sets sorted, links in mixed as {"$ref", "$id"}.
 * A query's syntax and properties are checked here (PORTER_ERR_USAGE, with the position).
 */
int porter_cursor_open(porter_file *file, const char *class_name, const char *query, uint32_t flags,
                       porter_cursor **cursor);

/**
 * The next object: `*document` (free with porter_free()) and `*length` (bytes, without the NUL
 * ending JSON text; `length` may be NULL for JSON). At the end: returns PORTER_OK with
 * `*document` NULL and `*length` 0, and again on every later call. A failure met while reading
 * an object (a damaged file) is returned once the objects before it were returned.
 */
int porter_cursor_next(porter_cursor *cursor, char **document, size_t *length);

/**
 * Up to `max_objects` (> 0) next objects in one buffer, for bindings whose cost is per call
 * (Python's ctypes, JNI): `*count` objects in `*documents` (free with porter_free()), `*length`
 * bytes (may be NULL for text). Text forms (the Extended JSON and JSON flags) come as one JSON
 * array, `[d1,d2,…]`, each element exactly the document porter_cursor_next() would return, and
 * NUL-terminated; BSON documents come one after another (each starts with its int32 length).
 * At the end: PORTER_OK with `*count` 0 and `*documents` NULL. A failure met after some objects
 * returns those first; the next call returns the failure. Mixing it with porter_cursor_next() on
 * one cursor is allowed: both take the next objects.
 */
int porter_cursor_next_batch(porter_cursor *cursor, size_t max_objects, char **documents, size_t *length,
                             size_t *count);

/** Closes a cursor (stopping its reader thread). A second close fails with
    PORTER_ERR_CLOSED_HANDLE. A cursor never closed keeps a thread and two descriptors. */
int porter_cursor_close(porter_cursor *cursor);

/**
 * Exports the file to `out_path` as `porter export FILE --out out_path --format format` does:
 * "bson" (a mongodump folder: <Class>.bson, <Class>.metadata.json, schema.json), "json",
 * "ejson", "ejson-canonical", "csv" (folders: one file per top-level class plus schema.json),
 * "sqlite" (one relational SQLite file; refused when it exists), "realm" (one Realm file of file
 * format 24; refused when it exists). Written under temporary names and renamed into place when
 * complete: after a failure or a cancellation nothing is left behind. `progress` may be NULL;
 * `context` is passed to it unchanged. ("realm" reports no progress but 0 before it starts.)
 */
int porter_export(porter_file *file, const char *out_path, const char *format, porter_progress_fn progress,
                  void *context);

/**
 * The report `porter check --json FILE` prints, for the file at `path` (with `key`, `key_length`
 * as for porter_open()): {"file", "ok", "kind", "diagnosis", "message", "evidence", "problems"}.
 * Works on files that do not open: that is what it is for. Returns PORTER_OK whenever a report
 * was made, sound file or not ("ok": false); fails only for bad arguments or a missing file.
 * Free `*json` with porter_free().
 */
int porter_check_json(const char *path, const uint8_t *key, size_t key_length, char **json, size_t *length);

/**
 * The forensic summary of the file at `path` (with `key`, `key_length` as for porter_open()),
 * made whether or not the file opens: {"file", "diagnosis", "message", "evidence",
 * "header": {"topRefs": [slot 0, slot 1], "fileFormats": [..], "selectedSlot", "currentTopRef",
 * "previousTopRef", "streaming"} (plaintext headers only), "readable", and either "reason" (why
 * it does not open: encrypted, unsupported format, empty, damaged and where) or "fileFormat",
 * "writers" (the SDK era), "encrypted", "fileSize", "schemaVersion", "historyType",
 * "classes": [{"name", "objects", "embedded", "primaryKey"}], "skippedTables"}.
 * Free `*json` with porter_free().
 */
int porter_inspect_json(const char *path, const uint8_t *key, size_t key_length, char **json, size_t *length);

#ifdef __cplusplus
}
#endif

#endif /* PORTER_H */
