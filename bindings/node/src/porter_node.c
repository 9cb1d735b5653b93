/*
 * porter_node.c: the Node-API (N-API) addon over porter.h that bindings/node/index.js wraps.
 *
 * Plain C against <node_api.h> (Debian's libnode-dev / nodejs headers), compiled by `make test-node`
 * with cc into .build/node/porter.node: no node-gyp, nothing downloaded. Every call is synchronous
 * on the JavaScript thread; the library serializes calls per handle, so nothing here locks.
 *
 * Handles: a porter_file * or porter_cursor * lives in a small box owned by a JavaScript external
 * value, tagged (napi_type_tag_object) so that a file cannot be passed where a cursor is expected
 * and nothing else can be passed for either. close() marks the box closed; the garbage collector's
 * finalizer closes only a box that was never closed, so nothing is closed twice. A closed box
 * keeps its old handle and later calls still go to the library, which refuses it with
 * PORTER_ERR_CLOSED_HANDLE and its own message (porter.h: handles are never real addresses and
 * never reused).
 *
 * Errors: every failing call throws an instance of the PorterError class index.js registers with
 * init(), built from the status code and porter_last_error()'s one-line message. Bad JavaScript
 * arguments (a number for a path, a NUL inside a string, an object for a key) throw TypeError
 * before the library is called.
 */
#define NAPI_VERSION 8
#include <node_api.h>

#include "porter.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A porter_file * (file) or a porter_cursor * (cursor, with its flags), as a JavaScript external. */
typedef struct {
    void *handle;
    int is_cursor;
    uint32_t flags;
    int closed;
} handle_box;

/* Random 128-bit tags: an external made by another addon cannot carry them. */
static const napi_type_tag FILE_TAG = {0x9a1c5e0f3b7d4c21ULL, 0x8e2f6a4d1c0b7e93ULL};
static const napi_type_tag CURSOR_TAG = {0x4d7e21c9a05f3b68ULL, 0xc3b1e8f2907a6d45ULL};

/* The module's state: a reference to the PorterError constructor given to init(). */
typedef struct {
    napi_ref error_class;
} addon_state;

/* Returns from the calling function with NULL when an N-API call failed (its exception pending). */
#define NAPI_OK(call)                                                                                                  \
    do {                                                                                                               \
        if ((call) != napi_ok) return NULL;                                                                            \
    } while (0)

/* --- Errors --------------------------------------------------------------------------------- */

/* Throws PorterError(code, message) (a plain Error with .code before init() was called). */
static void throw_porter(napi_env env, int code, const char *message) {
    addon_state *state = NULL;
    napi_value constructor = NULL, error = NULL, argv[2];
    napi_get_instance_data(env, (void **)&state);
    napi_create_int32(env, code, &argv[0]);
    napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &argv[1]);
    if (state && state->error_class && napi_get_reference_value(env, state->error_class, &constructor) == napi_ok &&
        constructor && napi_new_instance(env, constructor, 2, argv, &error) == napi_ok) {
        napi_throw(env, error);
        return;
    }
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    if (pending) return; /* the constructor itself threw: keep its exception */
    napi_create_error(env, NULL, argv[1], &error);
    napi_set_named_property(env, error, "code", argv[0]);
    napi_throw(env, error);
}

/* Throws the library's last failure, on `handle` or else of this thread, as PorterError(status). */
static void throw_last(napi_env env, int status, const void *handle) {
    char *message = porter_last_error(handle);
    if (!message) message = porter_last_error(NULL);
    throw_porter(env, status, message ? message : "unknown error");
    porter_free(message);
}

/* --- Arguments ------------------------------------------------------------------------------ */

static void *get_args(napi_env env, napi_callback_info info, size_t expected, napi_value *argv) {
    size_t argc = expected;
    for (size_t i = 0; i < expected; i++) napi_get_undefined(env, &argv[i]);
    NAPI_OK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
    return (void *)1;
}

static int is_nullish(napi_env env, napi_value value) {
    napi_valuetype type;
    return napi_typeof(env, value, &type) == napi_ok && (type == napi_undefined || type == napi_null);
}

/* A JavaScript string as a malloc'ed UTF-8 C string (free()), or NULL with a TypeError thrown.
   A string holding a NUL is refused: C would silently read only the part before it. */
static char *get_string(napi_env env, napi_value value, const char *what) {
    napi_valuetype type;
    if (napi_typeof(env, value, &type) != napi_ok) return NULL;
    if (type != napi_string) {
        char text[200];
        snprintf(text, sizeof text, "%s must be a string", what);
        napi_throw_type_error(env, NULL, text);
        return NULL;
    }
    size_t length = 0;
    if (napi_get_value_string_utf8(env, value, NULL, 0, &length) != napi_ok) return NULL;
    char *text = malloc(length + 1);
    if (!text) {
        napi_throw_error(env, NULL, "out of memory");
        return NULL;
    }
    if (napi_get_value_string_utf8(env, value, text, length + 1, &length) != napi_ok) {
        free(text);
        return NULL;
    }
    if (strlen(text) != length) {
        free(text);
        char message[200];
        snprintf(message, sizeof message, "%s contains a NUL character", what);
        napi_throw_type_error(env, NULL, message);
        return NULL;
    }
    return text;
}

/* An optional string: undefined or null give NULL with *ok set; otherwise as get_string. */
static char *get_optional_string(napi_env env, napi_value value, const char *what, int *ok) {
    *ok = 1;
    if (is_nullish(env, value)) return NULL;
    char *text = get_string(env, value, what);
    *ok = text != NULL;
    return text;
}

/* A key: undefined/null (none) or a non-empty Buffer/Uint8Array (its bytes, valid during this
   call; the library checks the length and says what is wrong). Returns 0 with a TypeError or
   RangeError thrown otherwise. */
static int get_key(napi_env env, napi_value value, const uint8_t **key, size_t *length) {
    *key = NULL;
    *length = 0;
    if (is_nullish(env, value)) return 1;
    bool is_typed = false;
    napi_is_typedarray(env, value, &is_typed);
    if (is_typed) {
        napi_typedarray_type type;
        void *data = NULL;
        size_t count = 0;
        if (napi_get_typedarray_info(env, value, &type, &count, &data, NULL, NULL) != napi_ok) return 0;
        if (type == napi_uint8_array && count == 0) {
            /* The library reads a key of length 0 as no key: an empty key is a caller's mistake. */
            napi_throw_range_error(env, NULL, "an encryption key is 64 bytes, got 0 (pass null for no key)");
            return 0;
        }
        if (type == napi_uint8_array) {
            *key = data;
            *length = count;
            return 1;
        }
    }
    napi_throw_type_error(env, NULL, "the key must be a Buffer or Uint8Array of 64 bytes, or null");
    return 0;
}

static void *get_box(napi_env env, napi_value value, const napi_type_tag *tag, const char *what) {
    napi_valuetype type;
    bool tagged = false;
    void *box = NULL;
    if (napi_typeof(env, value, &type) != napi_ok) return NULL;
    if (type == napi_external && napi_check_object_type_tag(env, value, tag, &tagged) == napi_ok && tagged &&
        napi_get_value_external(env, value, &box) == napi_ok && box)
        return box;
    char text[200];
    snprintf(text, sizeof text, "not a Porter %s handle", what);
    napi_throw_type_error(env, NULL, text);
    return NULL;
}

/* The arguments of a call whose first is a file (or, with is_cursor, a cursor) handle: its box, or
   NULL with an exception thrown. */
static handle_box *box_args(napi_env env, napi_callback_info info, size_t count, napi_value *argv, int is_cursor) {
    if (!get_args(env, info, count, argv)) return NULL;
    return get_box(env, argv[0], is_cursor ? &CURSOR_TAG : &FILE_TAG, is_cursor ? "cursor" : "file");
}

/* A count as a Number, or a BigInt beyond 2^53. */
static napi_value make_count(napi_env env, uint64_t count) {
    napi_value result;
    if (count <= 9007199254740991ULL) {
        NAPI_OK(napi_create_double(env, (double)count, &result));
    } else {
        NAPI_OK(napi_create_bigint_uint64(env, count, &result));
    }
    return result;
}

/* A returned buffer as a JavaScript string, freed with porter_free(). */
static napi_value take_string(napi_env env, char *text, size_t length) {
    napi_value result = NULL;
    napi_status status = napi_create_string_utf8(env, text, length, &result);
    porter_free(text);
    return status == napi_ok ? result : NULL;
}

/* --- Finalizers ----------------------------------------------------------------------------- */

static int close_handle(const handle_box *box) {
    return box->is_cursor ? porter_cursor_close(box->handle) : porter_close(box->handle);
}

/* Closes what the program left open when the external is collected; never a closed one again. */
static void finalize_box(napi_env env, void *data, void *hint) {
    (void)env;
    (void)hint;
    handle_box *box = data;
    if (!box->closed) close_handle(box);
    free(box);
}

/* `handle` (just opened) in a new tagged external, which owns it; closed again on failure. */
static napi_value wrap_handle(napi_env env, void *handle, int is_cursor, uint32_t flags) {
    napi_value result = NULL;
    handle_box *box = calloc(1, sizeof *box);
    if (!box) {
        handle_box temporary = {handle, is_cursor, flags, 0};
        close_handle(&temporary);
        napi_throw_error(env, NULL, "out of memory");
        return NULL;
    }
    *box = (handle_box){handle, is_cursor, flags, 0};
    if (napi_create_external(env, box, finalize_box, NULL, &result) != napi_ok) {
        close_handle(box);
        free(box);
        return NULL;
    }
    NAPI_OK(napi_type_tag_object(env, result, is_cursor ? &CURSOR_TAG : &FILE_TAG));
    return result;
}

/* close(file) / cursorClose(cursor) -> true when this call closed it, false when it was closed
   already (the library would refuse a second close; JavaScript's close() may be called twice). */
static napi_value close_box(napi_env env, napi_callback_info info, int is_cursor) {
    napi_value argv[1], result;
    handle_box *box = box_args(env, info, 1, argv, is_cursor);
    if (!box) return NULL;
    int was_open = !box->closed;
    if (was_open) {
        box->closed = 1;
        int status = close_handle(box);
        if (status != PORTER_OK) {
            throw_last(env, status, NULL);
            return NULL;
        }
    }
    NAPI_OK(napi_get_boolean(env, was_open, &result));
    return result;
}

static void finalize_state(napi_env env, void *data, void *hint) {
    (void)hint;
    addon_state *state = data;
    if (state->error_class) napi_delete_reference(env, state->error_class);
    free(state);
}

/* --- Functions ------------------------------------------------------------------------------ */

/* init(PorterError): the class every failure is thrown as (new PorterError(code, message)). */
static napi_value js_init(napi_env env, napi_callback_info info) {
    napi_value argv[1], result;
    if (!get_args(env, info, 1, argv)) return NULL;
    napi_valuetype type;
    NAPI_OK(napi_typeof(env, argv[0], &type));
    if (type != napi_function) {
        napi_throw_type_error(env, NULL, "init needs the PorterError class");
        return NULL;
    }
    addon_state *state = NULL;
    NAPI_OK(napi_get_instance_data(env, (void **)&state));
    if (state->error_class) napi_delete_reference(env, state->error_class);
    state->error_class = NULL;
    NAPI_OK(napi_create_reference(env, argv[0], 1, &state->error_class));
    NAPI_OK(napi_get_undefined(env, &result));
    return result;
}

/* version() -> {abi, header, version}: the library's ABI version, the header's, Porter's version. */
static napi_value js_version(napi_env env, napi_callback_info info) {
    (void)info;
    napi_value result, abi, header, version;
    NAPI_OK(napi_create_object(env, &result));
    NAPI_OK(napi_create_uint32(env, porter_abi_version(), &abi));
    NAPI_OK(napi_create_uint32(env, PORTER_ABI_VERSION, &header));
    NAPI_OK(napi_create_string_utf8(env, porter_version(), NAPI_AUTO_LENGTH, &version));
    NAPI_OK(napi_set_named_property(env, result, "abi", abi));
    NAPI_OK(napi_set_named_property(env, result, "header", header));
    NAPI_OK(napi_set_named_property(env, result, "version", version));
    return result;
}

/* The (path, key) arguments of open(), check() and inspect(): the path malloc'ed (free()), or
   NULL with an exception thrown. */
static char *get_path_and_key(napi_env env, napi_callback_info info, const uint8_t **key, size_t *key_length) {
    napi_value argv[2];
    if (!get_args(env, info, 2, argv)) return NULL;
    char *path = get_string(env, argv[0], "the path");
    if (path && !get_key(env, argv[1], key, key_length)) {
        free(path);
        return NULL;
    }
    return path;
}

/* open(path, key) -> file handle (external). */
static napi_value js_open(napi_env env, napi_callback_info info) {
    const uint8_t *key;
    size_t key_length;
    char *path = get_path_and_key(env, info, &key, &key_length);
    if (!path) return NULL;
    porter_file *file = NULL;
    int status = porter_open(path, key, key_length, 0, &file);
    free(path);
    if (status != PORTER_OK) {
        throw_last(env, status, NULL);
        return NULL;
    }
    return wrap_handle(env, file, 0, 0);
}

/* close(file) -> true when this call closed it, false when it was closed already. */
static napi_value js_close(napi_env env, napi_callback_info info) { return close_box(env, info, 0); }

/* schema(file) -> the schema-file JSON text. */
static napi_value js_schema(napi_env env, napi_callback_info info) {
    napi_value argv[1];
    handle_box *box = box_args(env, info, 1, argv, 0);
    if (!box) return NULL;
    char *json = NULL;
    size_t length = 0;
    int status = porter_schema_json(box->handle, &json, &length);
    if (status != PORTER_OK) {
        throw_last(env, status, box->handle);
        return NULL;
    }
    return take_string(env, json, length);
}

/* classes(file) -> [name, ...] in schema order (embedded classes included). */
static napi_value js_classes(napi_env env, napi_callback_info info) {
    napi_value argv[1], result;
    handle_box *box = box_args(env, info, 1, argv, 0);
    if (!box) return NULL;
    size_t count = 0;
    int status = porter_class_count(box->handle, &count);
    if (status != PORTER_OK) {
        throw_last(env, status, box->handle);
        return NULL;
    }
    NAPI_OK(napi_create_array_with_length(env, count, &result));
    for (size_t i = 0; i < count; i++) {
        char *name = NULL;
        status = porter_class_name(box->handle, i, &name);
        if (status != PORTER_OK) {
            throw_last(env, status, box->handle);
            return NULL;
        }
        napi_value element = take_string(env, name, strlen(name));
        if (!element) return NULL;
        NAPI_OK(napi_set_element(env, result, (uint32_t)i, element));
    }
    return result;
}

/* count(file, className) -> number of objects. */
static napi_value js_count(napi_env env, napi_callback_info info) {
    napi_value argv[2];
    handle_box *box = box_args(env, info, 2, argv, 0);
    if (!box) return NULL;
    char *name = get_string(env, argv[1], "the class name");
    if (!name) return NULL;
    uint64_t count = 0;
    int status = porter_object_count(box->handle, name, &count);
    free(name);
    if (status != PORTER_OK) {
        throw_last(env, status, box->handle);
        return NULL;
    }
    return make_count(env, count);
}

/* cursorOpen(file, className, query, flags) -> cursor handle (external). */
static napi_value js_cursor_open(napi_env env, napi_callback_info info) {
    napi_value argv[4];
    handle_box *box = box_args(env, info, 4, argv, 0);
    if (!box) return NULL;
    uint32_t flags = 0;
    napi_valuetype type;
    NAPI_OK(napi_typeof(env, argv[3], &type));
    if (type != napi_number) {
        napi_throw_type_error(env, NULL, "the cursor flags must be a number");
        return NULL;
    }
    NAPI_OK(napi_get_value_uint32(env, argv[3], &flags));
    int ok = 0;
    char *name = get_string(env, argv[1], "the class name");
    if (!name) return NULL;
    char *query = get_optional_string(env, argv[2], "the query", &ok);
    if (!ok) {
        free(name);
        return NULL;
    }
    porter_cursor *cursor = NULL;
    int status = porter_cursor_open(box->handle, name, query, flags, &cursor);
    free(name);
    free(query);
    if (status != PORTER_OK) {
        throw_last(env, status, box->handle);
        return NULL;
    }
    return wrap_handle(env, cursor, 1, flags);
}

/* cursorNext(cursor) -> the next document (a string, or a Buffer for BSON), null at the end. */
static napi_value js_cursor_next(napi_env env, napi_callback_info info) {
    napi_value argv[1], result;
    handle_box *box = box_args(env, info, 1, argv, 1);
    if (!box) return NULL;
    char *document = NULL;
    size_t length = 0;
    int status = porter_cursor_next(box->handle, &document, &length);
    if (status != PORTER_OK) {
        porter_free(document);
        throw_last(env, status, box->handle);
        return NULL;
    }
    if (!document) {
        NAPI_OK(napi_get_null(env, &result));
        return result;
    }
    if (box->flags == PORTER_CURSOR_BSON) {
        napi_status made = napi_create_buffer_copy(env, length, document, NULL, &result);
        porter_free(document);
        return made == napi_ok ? result : NULL;
    }
    return take_string(env, document, length);
}

/* cursorClose(cursor) -> true when this call closed it, false when it was closed already. */
static napi_value js_cursor_close(napi_env env, napi_callback_info info) { return close_box(env, info, 1); }

/* The JavaScript progress function during one export. */
typedef struct {
    napi_env env;
    napi_value function;
    int threw; /* the function threw: its exception is pending and rethrown after the export */
} progress_call;

/* Calls onProgress(done, total) on this (the JavaScript) thread; `false` cancels, and so does an
   exception (which then propagates to the caller of export instead of PorterError). */
static int on_progress(uint64_t done, uint64_t total, void *context) {
    progress_call *call = context;
    if (call->threw) return 1;
    napi_handle_scope scope;
    if (napi_open_handle_scope(call->env, &scope) != napi_ok) return 1;
    int cancel = 0;
    napi_value argv[2], global, result = NULL;
    argv[0] = make_count(call->env, done);
    argv[1] = make_count(call->env, total);
    if (!argv[0] || !argv[1] || napi_get_global(call->env, &global) != napi_ok ||
        napi_call_function(call->env, global, call->function, 2, argv, &result) != napi_ok) {
        call->threw = 1;
        cancel = 1;
    } else {
        napi_valuetype type;
        bool value = true;
        if (napi_typeof(call->env, result, &type) == napi_ok && type == napi_boolean &&
            napi_get_value_bool(call->env, result, &value) == napi_ok && !value)
            cancel = 1;
    }
    napi_close_handle_scope(call->env, scope);
    return cancel;
}

/* exportTo(file, outPath, format, onProgress|undefined). */
static napi_value js_export(napi_env env, napi_callback_info info) {
    napi_value argv[4], result;
    handle_box *box = box_args(env, info, 4, argv, 0);
    if (!box) return NULL;
    progress_call call = {env, NULL, 0};
    if (!is_nullish(env, argv[3])) {
        napi_valuetype type;
        NAPI_OK(napi_typeof(env, argv[3], &type));
        if (type != napi_function) {
            napi_throw_type_error(env, NULL, "onProgress must be a function");
            return NULL;
        }
        call.function = argv[3];
    }
    char *out = get_string(env, argv[1], "the output path");
    if (!out) return NULL;
    char *format = get_string(env, argv[2], "the format");
    if (!format) {
        free(out);
        return NULL;
    }
    int status = porter_export(box->handle, out, format, call.function ? on_progress : NULL, &call);
    free(out);
    free(format);
    if (call.threw) return NULL; /* onProgress's own exception, still pending */
    if (status != PORTER_OK) {
        throw_last(env, status, box->handle);
        return NULL;
    }
    NAPI_OK(napi_get_undefined(env, &result));
    return result;
}

typedef int (*report_fn)(const char *, const uint8_t *, size_t, char **, size_t *);

static napi_value report(napi_env env, napi_callback_info info, report_fn function) {
    const uint8_t *key;
    size_t key_length;
    char *path = get_path_and_key(env, info, &key, &key_length);
    if (!path) return NULL;
    char *json = NULL;
    size_t length = 0;
    int status = function(path, key, key_length, &json, &length);
    free(path);
    if (status != PORTER_OK) {
        throw_last(env, status, NULL);
        return NULL;
    }
    return take_string(env, json, length);
}

/* check(path, key) -> the `porter check --json` report text. */
static napi_value js_check(napi_env env, napi_callback_info info) { return report(env, info, porter_check_json); }

/* inspect(path, key) -> the forensic summary text. */
static napi_value js_inspect(napi_env env, napi_callback_info info) { return report(env, info, porter_inspect_json); }

NAPI_MODULE_INIT() {
    addon_state *state = calloc(1, sizeof *state);
    if (!state || napi_set_instance_data(env, state, finalize_state, NULL) != napi_ok) {
        free(state);
        napi_throw_error(env, NULL, "porter.node: cannot set up its state");
        return NULL;
    }
    napi_property_descriptor functions[] = {
        {"init", NULL, js_init, NULL, NULL, NULL, napi_enumerable, NULL},
        {"version", NULL, js_version, NULL, NULL, NULL, napi_enumerable, NULL},
        {"open", NULL, js_open, NULL, NULL, NULL, napi_enumerable, NULL},
        {"close", NULL, js_close, NULL, NULL, NULL, napi_enumerable, NULL},
        {"schema", NULL, js_schema, NULL, NULL, NULL, napi_enumerable, NULL},
        {"classes", NULL, js_classes, NULL, NULL, NULL, napi_enumerable, NULL},
        {"count", NULL, js_count, NULL, NULL, NULL, napi_enumerable, NULL},
        {"cursorOpen", NULL, js_cursor_open, NULL, NULL, NULL, napi_enumerable, NULL},
        {"cursorNext", NULL, js_cursor_next, NULL, NULL, NULL, napi_enumerable, NULL},
        {"cursorClose", NULL, js_cursor_close, NULL, NULL, NULL, napi_enumerable, NULL},
        {"exportTo", NULL, js_export, NULL, NULL, NULL, napi_enumerable, NULL},
        {"check", NULL, js_check, NULL, NULL, NULL, napi_enumerable, NULL},
        {"inspect", NULL, js_inspect, NULL, NULL, NULL, napi_enumerable, NULL},
    };
    NAPI_OK(napi_define_properties(env, exports, sizeof functions / sizeof *functions, functions));
    return exports;
}
