// The FuzzCAPI target's work per input, written in C against porter.h, so that what is fuzzed
// is what a C, JNI, N-API or ctypes caller reaches: the exported entry points, their argument
// checks, their buffers and handles, not the Swift API beneath them.
#include "FuzzCAPIHarness.h"

#include <porter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/// Objects read per class and per cursor: enough to walk every node of a seed, bounded so that a
/// mutated count cannot make one input run for minutes.
#define MAX_OBJECTS 2000

static char scratch[64];
static char out_dir[80];

static void drop(char *buffer) { porter_free(buffer); }

/// A failing call must leave a message and a code that say so; a success must not.
static void require_error_reported(const void *handle, int status) {
    if (status == PORTER_OK) return;
    char *message = porter_last_error(handle);
    if (message == NULL || message[0] == '\0' || porter_error_code(handle) != status) {
        fprintf(stderr, "status %d without its message or code\n", status);
        abort();
    }
    drop(message);
}

static int stop_after_first(uint64_t done, uint64_t total, void *context) {
    (void)total;
    (void)context;
    return done > 0;
}

static void read_class(porter_file *file, const char *name, uint32_t flags, const char *query) {
    porter_cursor *cursor = NULL;
    int status = porter_cursor_open(file, name, query, flags, &cursor);
    require_error_reported(NULL, status);
    if (status != PORTER_OK) return;
    for (int i = 0; i < MAX_OBJECTS; i++) {
        char *document = NULL;
        size_t length = 0;
        status = porter_cursor_next(cursor, &document, &length);
        if (status != PORTER_OK) {
            require_error_reported(cursor, status);
            break;
        }
        if (document == NULL) break;
        // BSON documents carry their own length; text is NUL-terminated at `length`.
        if (flags != PORTER_CURSOR_BSON && document[length] != '\0') abort();
        drop(document);
    }
    if (porter_cursor_close(cursor) != PORTER_OK) abort();
}

static void read_file(const uint8_t *key, size_t key_length) {
    porter_file *file = NULL;
    int status = porter_open(scratch, key, key_length, 0, &file);
    require_error_reported(NULL, status);
    if (status != PORTER_OK) {
        if (file != NULL) abort();
        return;
    }
    char *json = NULL;
    if (porter_schema_json(file, &json, NULL) == PORTER_OK) drop(json);
    size_t classes = 0;
    if (porter_class_count(file, &classes) == PORTER_OK) {
        for (size_t i = 0; i < classes; i++) {
            char *name = NULL;
            if (porter_class_name(file, i, &name) != PORTER_OK) continue;
            uint64_t count = 0;
            porter_object_count(file, name, &count);
            read_class(file, name, (uint32_t)(i % 4), NULL);
            // A query through the evaluator: refused (no such property) or run, never a crash.
            read_class(file, name, PORTER_CURSOR_EJSON_CANONICAL, "_id != nil OR TRUEPREDICATE");
            drop(name);
        }
        // Out of range: an error, not a read past the end.
        char *name = NULL;
        if (porter_class_name(file, classes, &name) == PORTER_OK) abort();
    }
    // One export per input, cancelled after its first progress report: staged output removed.
    int exported = porter_export(file, out_dir, "ejson-canonical", stop_after_first, NULL);
    require_error_reported(file, exported);
    if (exported == PORTER_ERR_CANCELLED && access(out_dir, F_OK) == 0) {
        fprintf(stderr, "a cancelled export left %s behind\n", out_dir);
        abort();
    }
    if (exported == PORTER_OK) {
        // Small files finish before the first report of 256 objects: clean up for the next input.
        char command[128];
        snprintf(command, sizeof command, "rm -rf '%s'", out_dir);
        if (system(command) != 0) abort();
    }
    if (porter_close(file) != PORTER_OK) abort();
    if (porter_close(file) != PORTER_ERR_CLOSED_HANDLE) abort();
}

int porter_fuzz_c_api(const uint8_t *data, size_t size) {
    if (scratch[0] == '\0') {
        snprintf(scratch, sizeof scratch, "/tmp/porter-fuzz-capi-%d.realm", (int)getpid());
        snprintf(out_dir, sizeof out_dir, "/tmp/porter-fuzz-capi-%d.out", (int)getpid());
    }
    FILE *out = fopen(scratch, "wb");
    if (out == NULL || fwrite(data, 1, size, out) != size || fclose(out) != 0) abort();
    read_file(NULL, 0);
    // Page-sized inputs also go through decryption (the encrypted seeds' key: bytes 0…63).
    if (size % 4096 == 0) {
        uint8_t key[64];
        for (int i = 0; i < 64; i++) key[i] = (uint8_t)i;
        read_file(key, sizeof key);
    }
    // The forensic calls work on files that do not open: that is what they are for.
    char *json = NULL;
    size_t length = 0;
    int status = porter_check_json(scratch, NULL, 0, &json, &length);
    if (status != PORTER_OK || json == NULL || strlen(json) != length) abort();
    drop(json);
    json = NULL;
    status = porter_inspect_json(scratch, NULL, 0, &json, &length);
    if (status != PORTER_OK || json == NULL || strlen(json) != length) abort();
    drop(json);
    unlink(scratch);
    return 0;
}
