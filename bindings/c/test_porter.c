/*
 * The C library's test program (`make test-bindings`, `make sanitize-lib`, valgrind): every Realm
 * file of the folders given is read through porter.h and compared, object by object, with what
 * `porter export --format ejson-canonical` writes for the same file; then exports, the check and
 * summary reports, queries, threads, and the error paths (missing, foreign, truncated and damaged
 * files, wrong keys, NULL arguments, closed handles).
 *
 * Usage: test_porter PORTER_BINARY FOLDER... (a folder that does not exist is skipped with a
 * message). Exit status 0 when every check passed. PORTER_TEST_CYCLES=N repeats the
 * open/iterate/export/close cycle N times (for valgrind's leak check).
 */
#define _POSIX_C_SOURCE 200809L
#include "porter.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int failures = 0;
static int checks = 0;
static const char *porter_binary;
static char scratch[256];

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        checks++;                                                                                                      \
        if (!(cond)) {                                                                                                 \
            failures++;                                                                                                \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                                       \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
        }                                                                                                              \
    } while (0)

/* The known keys of the encrypted test files (Fixtures/realm/README.md, ../shared/realm-files/README.md). */
static uint8_t key_0_63[64], key_100_163[64];

static const uint8_t *key_for(const char *path) {
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (!strcmp(name, "every-type-encrypted.realm") || !strcmp(name, "column-migration-encrypted.realm"))
        return key_100_163;
    if (!strcmp(name, "links-encrypted.realm") || !strcmp(name, "dev-encrypted-realm-docs.realm")) return key_0_63;
    return NULL;
}

static void hex(const uint8_t *key, char *out) {
    for (int i = 0; i < 64; i++) sprintf(out + 2 * i, "%02x", key[i]);
}

/* The last error's message (freed here), for failure output. */
static const char *message(const void *handle) {
    static char text[2048];
    char *m = porter_last_error(handle);
    snprintf(text, sizeof text, "%s", m ? m : "(no message)");
    porter_free(m);
    return text;
}

/* `porter ARGS` through the shell, its standard output read by the caller. */
static FILE *run_porter(const char *args) {
    char command[4096];
    /* Standard error is dropped unless `args` says where it goes ("2>&1 >/dev/null" reads it). */
    snprintf(command, sizeof command, "'%s' %s%s", porter_binary, args, strstr(args, "2>&1") ? "" : " 2>/dev/null");
    return popen(command, "r");
}

static char *read_line(FILE *f) {
    char *line = NULL;
    size_t capacity = 0;
    ssize_t n = getline(&line, &capacity, f);
    if (n < 0) {
        free(line);
        return NULL;
    }
    if (n > 0 && line[n - 1] == '\n') line[n - 1] = 0;
    return line;
}

/* Compares the cursor over `class_name` (with `query`) with the command line's export of it,
   line by line; returns the number of objects, -1 when both refuse the class. */
static long compare_class(porter_file *file, const char *path, const uint8_t *key, const char *class_name,
                          const char *query, uint32_t flags) {
    const char *format = flags == PORTER_CURSOR_EJSON_CANONICAL ? "ejson-canonical"
                         : flags == PORTER_CURSOR_JSON                ? "json"
                                                                      : "ejson";
    char args[4096], key_hex[129] = "", key_option[200] = "", query_option[1024] = "";
    if (key) {
        hex(key, key_hex);
        snprintf(key_option, sizeof key_option, "--encryption-key %s", key_hex);
    }
    if (query) snprintf(query_option, sizeof query_option, "--query \"%s\"", query);
    snprintf(args, sizeof args, "export '%s' %s --format %s --class '%s' %s --out - --quiet", path, key_option,
             format, class_name, query_option);
    porter_cursor *cursor = NULL;
    int status = porter_cursor_open(file, class_name, query, flags, &cursor);
    FILE *cli = run_porter(args);
    if (status != PORTER_OK) {
        /* Embedded classes: the command line refuses them too. */
        char *line = read_line(cli);
        CHECK(line == NULL, "%s %s: the library refused (%s) but porter export wrote %s", path, class_name,
              message(file), line);
        free(line);
        pclose(cli);
        CHECK(cursor == NULL, "a failed cursor_open left a handle");
        return -1;
    }
    long count = 0;
    for (;;) {
        char *document = NULL;
        size_t length = 99;
        status = porter_cursor_next(cursor, &document, &length);
        char *expected = read_line(cli);
        if (status != PORTER_OK) {
            /* A stored value this form cannot hold (a date beyond BSON's range in Extended JSON):
               porter export must fail on it too, after the same objects, with the same message. */
            long failed_at = count;
            char *library_message = porter_last_error(cursor);
            while (expected) {
                free(expected);
                expected = read_line(cli);
                count++;
            }
            CHECK(count == failed_at, "%s %s: the library failed at #%ld, porter export wrote %ld", path, class_name,
                  failed_at, count);
            CHECK(pclose(cli) != 0, "%s %s #%ld: the library failed (%s), porter export did not", path, class_name,
                  failed_at, library_message);
            char stderr_args[4200];
            snprintf(stderr_args, sizeof stderr_args, "%s 2>&1 >/dev/null", args);
            FILE *errors = run_porter(stderr_args);
            char *cli_message = read_line(errors);
            pclose(errors);
            CHECK(cli_message && library_message && strstr(cli_message, library_message), "%s %s: library: %s, porter: %s",
                  path, class_name, library_message, cli_message ? cli_message : "(nothing)");
            free(cli_message);
            porter_free(library_message);
            CHECK(porter_cursor_close(cursor) == PORTER_OK, "cursor_close: %s", message(NULL));
            return -1;
        }
        if (!document && !expected) {
            CHECK(length == 0 || status != PORTER_OK, "the end has length %zu", length);
            porter_free(document);
            free(expected);
            break;
        }
        CHECK(document && expected && strlen(document) == length && !strcmp(document, expected),
              "%s %s #%ld (%s):\n  library: %s\n  porter:  %s", path, class_name, count, format,
              document ? document : "(end)", expected ? expected : "(end)");
        count++;
        porter_free(document);
        free(expected);
        if (!document || !expected) break;
    }
    /* After the end, the end again. */
    char *again = (char *)1;
    CHECK(porter_cursor_next(cursor, &again, NULL) == PORTER_OK && again == NULL, "the end is not sticky");
    CHECK(pclose(cli) == 0, "%s %s: porter export failed", path, class_name);
    CHECK(porter_cursor_close(cursor) == PORTER_OK, "cursor_close: %s", message(NULL));
    return count;
}

/* Every class of one file, canonical then relaxed; the counts against porter_object_count. */
static void compare_file(const char *path) {
    const uint8_t *key = key_for(path);
    porter_file *file = NULL;
    int status = porter_open(path, key, key ? 64 : 0, 0, &file);
    if (status != PORTER_OK) {
        /* The command line must refuse it too, with the same message. */
        char args[2048], key_hex[129], key_option[200] = "";
        if (key) {
            hex(key, key_hex);
            snprintf(key_option, sizeof key_option, "--encryption-key %s", key_hex);
        }
        char *error = porter_last_error(NULL);
        snprintf(args, sizeof args, "schema '%s' %s >/dev/null 2>&1; echo $?", path, key_option);
        FILE *cli = run_porter(args);
        char *exit_status = read_line(cli);
        pclose(cli);
        CHECK(exit_status && strcmp(exit_status, "0") != 0, "%s: the library refused (%s) but porter read it", path,
              error);
        CHECK(file == NULL && error && strstr(error, path), "%s: the message does not name the file: %s", path, error);
        printf("  %-60s refused, as by porter: %s\n", path, error ? error : "");
        free(exit_status);
        porter_free(error);
        return;
    }
    size_t classes = 0;
    CHECK(porter_class_count(file, &classes) == PORTER_OK, "class_count: %s", message(file));
    long objects = 0;
    for (size_t i = 0; i < classes; i++) {
        char *name = NULL;
        CHECK(porter_class_name(file, i, &name) == PORTER_OK && name, "class_name %zu: %s", i, message(file));
        if (!name) continue;
        uint64_t count = 0;
        CHECK(porter_object_count(file, name, &count) == PORTER_OK, "object_count %s: %s", name, message(file));
        long compared = compare_class(file, path, key, name, NULL, PORTER_CURSOR_EJSON_CANONICAL);
        if (compared >= 0) {
            CHECK((uint64_t)compared == count, "%s %s: %ld objects read, object_count says %llu", path, name, compared,
                  (unsigned long long)count);
            CHECK(compare_class(file, path, key, name, NULL, PORTER_CURSOR_EJSON_RELAXED) == compared,
                  "%s %s: relaxed count differs", path, name);
            CHECK(compare_class(file, path, key, name, NULL, PORTER_CURSOR_JSON) == compared,
                  "%s %s: plain JSON count differs", path, name);
            objects += compared;
        }
        porter_free(name);
    }
    char *schema = NULL;
    size_t length = 0;
    CHECK(porter_schema_json(file, &schema, &length) == PORTER_OK && schema && strlen(schema) == length &&
              strstr(schema, "\"classes\""),
          "schema_json: %s", message(file));
    porter_free(schema);
    CHECK(porter_close(file) == PORTER_OK, "close: %s", message(NULL));
    printf("  %-60s %zu classes, %ld objects equal to porter export\n", path, classes, objects);
}

static int compare_folder(const char *folder) {
    DIR *dir = opendir(folder);
    if (!dir) {
        printf("skipped %s: %s (the shared Realm files are not on this machine)\n", folder, strerror(errno));
        return 0;
    }
    int files = 0;
    struct dirent *entry;
    char *names[512];
    int n = 0;
    while ((entry = readdir(dir)) && n < 512) {
        size_t length = strlen(entry->d_name);
        if (length > 6 && !strcmp(entry->d_name + length - 6, ".realm")) names[n++] = strdup(entry->d_name);
    }
    closedir(dir);
    for (int i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", folder, names[i]);
        compare_file(path);
        free(names[i]);
        files++;
    }
    return files;
}

/* --- Exports ------------------------------------------------------------------------------ */

struct progress_state {
    uint64_t calls, last, total;
    int cancel_after;
};

static int on_progress(uint64_t done, uint64_t total, void *context) {
    struct progress_state *state = context;
    state->calls++;
    state->last = done;
    state->total = total;
    return state->cancel_after >= 0 && state->calls > (uint64_t)state->cancel_after;
}

static int exists(const char *path) {
    struct stat s;
    return stat(path, &s) == 0;
}

static void test_exports(const char *fixtures) {
    char path[1024], out[1024], cli_out[1024], args[4096];
    snprintf(path, sizeof path, "%s/every-type.realm", fixtures);
    porter_file *file = NULL;
    if (porter_open(path, NULL, 0, 0, &file) != PORTER_OK) {
        CHECK(0, "open %s: %s", path, message(NULL));
        return;
    }
    const char *formats[] = {"ejson-canonical", "ejson", "json", "bson", "csv"};
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
        snprintf(out, sizeof out, "%s/lib-%s", scratch, formats[i]);
        snprintf(cli_out, sizeof cli_out, "%s/cli-%s", scratch, formats[i]);
        struct progress_state state = {0, 0, 0, -1};
        CHECK(porter_export(file, out, formats[i], on_progress, &state) == PORTER_OK, "export %s: %s", formats[i],
              message(file));
        CHECK(state.calls >= 2 && state.last == state.total && state.total > 0,
              "export %s: progress %llu calls, last %llu of %llu", formats[i], (unsigned long long)state.calls,
              (unsigned long long)state.last, (unsigned long long)state.total);
        snprintf(args, sizeof args, "export '%s' --format %s --out '%s' --quiet >/dev/null", path, formats[i], cli_out);
        FILE *cli = run_porter(args);
        CHECK(pclose(cli) == 0, "porter export --format %s failed", formats[i]);
        char command[4096];
        snprintf(command, sizeof command, "diff -r '%s' '%s' >&2", out, cli_out);
        CHECK(system(command) == 0, "export %s: the library's folder differs from porter export's", formats[i]);
    }
    /* One-file formats: refused when the file exists. */
    snprintf(out, sizeof out, "%s/lib.sqlite", scratch);
    CHECK(porter_export(file, out, "sqlite", NULL, NULL) == PORTER_OK && exists(out), "export sqlite: %s",
          message(file));
    CHECK(porter_export(file, out, "sqlite", NULL, NULL) == PORTER_ERR_IO, "export sqlite over a file");
    snprintf(out, sizeof out, "%s/lib.realm", scratch);
    CHECK(porter_export(file, out, "realm", NULL, NULL) == PORTER_OK && exists(out), "export realm: %s",
          message(file));
    CHECK(porter_export(file, out, "realm", NULL, NULL) == PORTER_ERR_IO, "export realm over a file");
    /* The written Realm file reads back with the same objects. */
    porter_file *copy = NULL;
    CHECK(porter_open(out, NULL, 0, 0, &copy) == PORTER_OK, "open the exported realm: %s", message(NULL));
    uint64_t a = 0, b = 0;
    porter_object_count(file, "Every", &a);
    porter_object_count(copy, "Every", &b);
    CHECK(a == b && a > 0, "the exported Realm file has %llu Every objects, the source %llu", (unsigned long long)b,
          (unsigned long long)a);
    porter_close(copy);
    /* Cancelled at the first progress call: an error, and nothing left behind. */
    snprintf(out, sizeof out, "%s/cancelled", scratch);
    struct progress_state cancel = {0, 0, 0, 0};
    CHECK(porter_export(file, out, "bson", on_progress, &cancel) == PORTER_ERR_CANCELLED, "cancel: %s",
          message(file));
    CHECK(!exists(out), "a cancelled export left %s", out);
    CHECK(porter_export(file, out, "yaml", NULL, NULL) == PORTER_ERR_INVALID_ARGUMENT, "unknown format accepted");
    CHECK(strstr(message(file), "yaml") != NULL, "the message does not name the format: %s", message(file));
    porter_close(file);
}

/* A query: the cursor equals `porter export --query`, and a bad query fails with its position. */
static void test_queries(const char *fixtures) {
    char path[1024];
    snprintf(path, sizeof path, "%s/inner-nodes.realm", fixtures);
    porter_file *file = NULL;
    if (porter_open(path, NULL, 0, 0, &file) != PORTER_OK) {
        CHECK(0, "open %s: %s", path, message(NULL));
        return;
    }
    char *name = NULL;
    porter_class_name(file, 0, &name);
    /* Every class has a primary key or _key; a predicate on the first property keeps some. */
    long all = compare_class(file, path, NULL, name, NULL, PORTER_CURSOR_EJSON_CANONICAL);
    long some = compare_class(file, path, NULL, name, "TRUEPREDICATE", PORTER_CURSOR_EJSON_CANONICAL);
    long none = compare_class(file, path, NULL, name, "FALSEPREDICATE", PORTER_CURSOR_EJSON_CANONICAL);
    CHECK(all > 0 && some == all && none == 0, "queries: %ld all, %ld true, %ld false", all, some, none);
    porter_cursor *cursor = NULL;
    CHECK(porter_cursor_open(file, name, "id >", 0, &cursor) == PORTER_ERR_USAGE && cursor == NULL,
          "a bad query was accepted");
    CHECK(strstr(message(file), "query") != NULL, "the message does not say query: %s", message(file));
    CHECK(porter_cursor_open(file, name, "noSuchProperty == 1", 0, &cursor) == PORTER_ERR_USAGE,
          "an unknown property was accepted: %s", message(file));
    CHECK(porter_cursor_open(file, "NoSuchClass", NULL, 0, &cursor) == PORTER_ERR_NOT_FOUND, "no such class: %s",
          message(file));
    /* BSON: length-prefixed documents, as many as JSON lines. */
    CHECK(porter_cursor_open(file, name, NULL, PORTER_CURSOR_BSON, &cursor) == PORTER_OK, "bson cursor: %s",
          message(file));
    long bson = 0;
    for (;;) {
        char *document = NULL;
        size_t length = 0;
        if (porter_cursor_next(cursor, &document, &length) != PORTER_OK || !document) break;
        int32_t size;
        memcpy(&size, document, 4);
        CHECK((size_t)size == length && document[length - 1] == 0, "a BSON document of %zu bytes says %d", length,
              size);
        porter_free(document);
        bson++;
    }
    CHECK(bson == all, "%ld BSON documents, %ld JSON", bson, all);
    porter_cursor_close(cursor);
    /* A cursor closed before its end, and one that outlives its file handle. */
    CHECK(porter_cursor_open(file, name, NULL, 0, &cursor) == PORTER_OK, "cursor: %s", message(file));
    char *first = NULL;
    CHECK(porter_cursor_next(cursor, &first, NULL) == PORTER_OK && first, "first: %s", message(cursor));
    porter_free(first);
    CHECK(porter_close(file) == PORTER_OK, "close with a cursor open");
    long rest = 0;
    for (char *document = NULL; porter_cursor_next(cursor, &document, NULL) == PORTER_OK && document; rest++)
        porter_free(document);
    CHECK(rest == all - 1, "after closing the file, the cursor read %ld of %ld", rest, all - 1);
    porter_cursor_close(cursor);
    porter_free(name);
}

/* --- Threads ------------------------------------------------------------------------------ */

struct thread_job {
    porter_file *file;
    const char *class_name;
    long count;
};

static void *iterate(void *argument) {
    struct thread_job *job = argument;
    for (int round = 0; round < 3; round++) {
        porter_cursor *cursor = NULL;
        if (porter_cursor_open(job->file, job->class_name, NULL, PORTER_CURSOR_EJSON_CANONICAL, &cursor)) return NULL;
        for (char *document = NULL; porter_cursor_next(cursor, &document, NULL) == PORTER_OK && document;) {
            job->count++;
            porter_free(document);
        }
        porter_cursor_close(cursor);
        char *schema = NULL;
        porter_schema_json(job->file, &schema, NULL);
        porter_free(schema);
    }
    return NULL;
}

static void test_threads(const char *fixtures) {
    char path[1024];
    snprintf(path, sizeof path, "%s/every-type.realm", fixtures);
    porter_file *file = NULL;
    if (porter_open(path, NULL, 0, 0, &file) != PORTER_OK) return;
    uint64_t count = 0;
    porter_object_count(file, "Every", &count);
    pthread_t threads[4];
    struct thread_job jobs[4];
    for (int i = 0; i < 4; i++) {
        jobs[i] = (struct thread_job){file, "Every", 0};
        pthread_create(&threads[i], NULL, iterate, &jobs[i]);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(threads[i], NULL);
        CHECK(jobs[i].count == 3 * (long)count, "thread %d read %ld objects, expected %llu", i, jobs[i].count,
              3 * (unsigned long long)count);
    }
    porter_close(file);
}

/* --- Errors -------------------------------------------------------------------------------- */

static void write_file(const char *path, const void *bytes, size_t length) {
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(bytes, 1, length, f);
        fclose(f);
    }
}

static void expect_refused(const char *path, const uint8_t *key, int code, const char *words) {
    porter_file *file = (porter_file *)1;
    int status = porter_open(path, key, key ? 64 : 0, 0, &file);
    char *error = porter_last_error(NULL);
    CHECK(status == code && file == NULL, "open %s: status %d (expected %d): %s", path, status, code, error);
    CHECK(error && strstr(error, path) && strstr(error, words), "open %s: the message lacks '%s': %s", path, words,
          error);
    CHECK(porter_error_code(NULL) == code, "error_code %d, expected %d", porter_error_code(NULL), code);
    porter_free(error);
}

static void test_errors(const char *fixtures) {
    char path[1024], copy[1024];
    snprintf(path, sizeof path, "%s/no-such-file.realm", scratch);
    expect_refused(path, NULL, PORTER_ERR_IO, "no such file");
    expect_refused(scratch, NULL, PORTER_ERR_IO, "folder");
    /* A foreign file, an empty one, a truncated copy, a damaged header. */
    snprintf(path, sizeof path, "%s/notes.realm", scratch);
    write_file(path, "{\"not\": \"a realm file\"}", 23);
    expect_refused(path, NULL, PORTER_ERR_NOT_A_REALM_FILE, "JSON");
    snprintf(path, sizeof path, "%s/empty.realm", scratch);
    write_file(path, "", 0);
    expect_refused(path, NULL, PORTER_ERR_NOT_A_REALM_FILE, "empty");
    snprintf(copy, sizeof copy, "%s/every-type.realm", fixtures);
    FILE *f = fopen(copy, "rb");
    static char bytes[1 << 22];
    size_t size = f ? fread(bytes, 1, sizeof bytes, f) : 0;
    if (f) fclose(f);
    CHECK(size > 4096, "cannot read %s", copy);
    snprintf(path, sizeof path, "%s/truncated.realm", scratch);
    write_file(path, bytes, size / 2);
    porter_file *file = NULL;
    CHECK(porter_open(path, NULL, 0, 0, &file) != PORTER_OK && file == NULL, "a truncated file opened");
    char *check = NULL;
    CHECK(porter_check_json(path, NULL, 0, &check, NULL) == PORTER_OK && check && strstr(check, "\"ok\": false"),
          "check of a truncated file: %s", check ? check : message(NULL));
    porter_free(check);
    snprintf(path, sizeof path, "%s/damaged-header.realm", scratch);
    memcpy(bytes + 16, "X-DB", 4);
    write_file(path, bytes, size);
    expect_refused(path, NULL, PORTER_ERR_NOT_A_REALM_FILE, "damaged");
    /* Damage inside: every byte of one page overwritten. Opening may succeed (the damage is in
       objects); then reading or checking must fail or report it, never crash. */
    memcpy(bytes + 16, "T-DB", 4);
    memset(bytes + size / 2, 0xA5, 4096);
    snprintf(path, sizeof path, "%s/damaged-inside.realm", scratch);
    write_file(path, bytes, size);
    if (porter_open(path, NULL, 0, 0, &file) == PORTER_OK) {
        size_t classes = 0;
        porter_class_count(file, &classes);
        for (size_t i = 0; i < classes; i++) {
            char *name = NULL;
            if (porter_class_name(file, i, &name) != PORTER_OK) continue;
            porter_cursor *cursor = NULL;
            if (porter_cursor_open(file, name, NULL, 0, &cursor) == PORTER_OK) {
                for (char *document = NULL; porter_cursor_next(cursor, &document, NULL) == PORTER_OK && document;)
                    porter_free(document);
                porter_cursor_close(cursor);
            }
            porter_free(name);
        }
        porter_close(file);
    }
    CHECK(porter_check_json(path, NULL, 0, &check, NULL) == PORTER_OK && check, "check of a damaged file");
    porter_free(check);
    /* Keys: none for an encrypted file, a wrong one, one for a plain file, a short one. */
    snprintf(path, sizeof path, "%s/every-type-encrypted.realm", fixtures);
    expect_refused(path, NULL, PORTER_ERR_NOT_A_REALM_FILE, "encrypt");
    expect_refused(path, key_0_63, PORTER_ERR_NOT_A_REALM_FILE, "key");
    snprintf(path, sizeof path, "%s/every-type.realm", fixtures);
    expect_refused(path, key_0_63, PORTER_ERR_USAGE, "not encrypted");
    CHECK(porter_open(path, key_0_63, 16, 0, &file) == PORTER_ERR_USAGE, "a 16-byte key accepted");
    CHECK(porter_open(path, NULL, 64, 0, &file) == PORTER_ERR_INVALID_ARGUMENT, "a NULL key of 64 bytes");
    CHECK(porter_open(path, NULL, 0, 7, &file) == PORTER_ERR_INVALID_ARGUMENT, "unknown flags accepted");
    /* NULL arguments everywhere. */
    CHECK(porter_open(NULL, NULL, 0, 0, &file) == PORTER_ERR_INVALID_ARGUMENT, "NULL path");
    CHECK(porter_open(path, NULL, 0, 0, NULL) == PORTER_ERR_INVALID_ARGUMENT, "NULL out");
    CHECK(porter_close(NULL) == PORTER_ERR_INVALID_ARGUMENT, "close NULL");
    CHECK(porter_schema_json(NULL, &check, NULL) == PORTER_ERR_INVALID_ARGUMENT, "schema NULL");
    CHECK(porter_class_count(NULL, NULL) == PORTER_ERR_INVALID_ARGUMENT, "class_count NULL");
    CHECK(porter_cursor_next(NULL, &check, NULL) == PORTER_ERR_INVALID_ARGUMENT, "cursor_next NULL");
    CHECK(porter_cursor_close(NULL) == PORTER_ERR_INVALID_ARGUMENT, "cursor_close NULL");
    CHECK(porter_export(NULL, "x", "bson", NULL, NULL) == PORTER_ERR_INVALID_ARGUMENT, "export NULL");
    CHECK(porter_check_json(NULL, NULL, 0, &check, NULL) == PORTER_ERR_INVALID_ARGUMENT, "check NULL path");
    CHECK(porter_inspect_json(path, NULL, 0, NULL, NULL) == PORTER_ERR_INVALID_ARGUMENT, "inspect NULL out");
    porter_free(NULL);
    CHECK(porter_open(path, NULL, 0, 0, &file) == PORTER_OK, "open: %s", message(NULL));
    size_t classes = 0;
    char *name = NULL;
    uint64_t count = 0;
    CHECK(porter_class_count(file, NULL) == PORTER_ERR_INVALID_ARGUMENT, "class_count NULL count");
    CHECK(porter_class_name(file, 1000, &name) == PORTER_ERR_INVALID_ARGUMENT && name == NULL, "index 1000");
    CHECK(strstr(message(file), "out of range") != NULL, "index message: %s", message(file));
    CHECK(porter_class_name(file, 0, NULL) == PORTER_ERR_INVALID_ARGUMENT, "class_name NULL out");
    CHECK(porter_object_count(file, NULL, &count) == PORTER_ERR_INVALID_ARGUMENT, "object_count NULL class");
    CHECK(porter_object_count(file, "Nope", &count) == PORTER_ERR_NOT_FOUND, "object_count Nope");
    CHECK(porter_error_code(file) == PORTER_ERR_NOT_FOUND, "error_code of the handle: %d", porter_error_code(file));
    CHECK(porter_cursor_open(file, NULL, NULL, 0, (porter_cursor **)&name) == PORTER_ERR_INVALID_ARGUMENT,
          "cursor NULL class");
    CHECK(porter_cursor_open(file, "Every", NULL, 4, (porter_cursor **)&name) == PORTER_ERR_INVALID_ARGUMENT,
          "cursor flags 4");
    CHECK(porter_cursor_open(file, "Emb", NULL, 0, (porter_cursor **)&name) == PORTER_ERR_USAGE,
          "an embedded class as a cursor");
    CHECK(porter_cursor_next((porter_cursor *)file, &check, NULL) == PORTER_ERR_INVALID_ARGUMENT,
          "a file handle as a cursor");
    CHECK(porter_export(file, NULL, "bson", NULL, NULL) == PORTER_ERR_INVALID_ARGUMENT, "export NULL path");
    /* Use after close. */
    CHECK(porter_close(file) == PORTER_OK, "close");
    CHECK(porter_close(file) == PORTER_ERR_CLOSED_HANDLE, "a second close");
    CHECK(porter_class_count(file, &classes) == PORTER_ERR_CLOSED_HANDLE, "class_count after close");
    CHECK(porter_schema_json(file, &check, NULL) == PORTER_ERR_CLOSED_HANDLE, "schema after close");
    CHECK(porter_error_code(NULL) == PORTER_ERR_CLOSED_HANDLE, "the thread's code after use after close");
    CHECK(strstr(message(file), "closed") != NULL, "message: %s", message(file));
    CHECK(porter_class_count((porter_file *)0x1234, &classes) == PORTER_ERR_CLOSED_HANDLE, "a made-up handle");
    porter_cursor *cursor = NULL;
    CHECK(porter_open(path, NULL, 0, 0, &file) == PORTER_OK, "reopen");
    CHECK(porter_cursor_open(file, "Every", NULL, 0, &cursor) == PORTER_OK, "cursor");
    CHECK(porter_cursor_close(cursor) == PORTER_OK, "cursor_close");
    CHECK(porter_cursor_close(cursor) == PORTER_ERR_CLOSED_HANDLE, "a second cursor_close");
    CHECK(porter_cursor_next(cursor, &check, NULL) == PORTER_ERR_CLOSED_HANDLE, "cursor_next after close");
    porter_close(file);
    /* The reports. */
    char *json = NULL;
    size_t length = 0;
    CHECK(porter_check_json(path, NULL, 0, &json, &length) == PORTER_OK && json && strstr(json, "\"ok\": true") &&
              strlen(json) == length,
          "check: %s", json ? json : message(NULL));
    porter_free(json);
    CHECK(porter_inspect_json(path, NULL, 0, &json, &length) == PORTER_OK && json && strstr(json, "\"topRefs\"") &&
              strstr(json, "\"readable\": true") && strstr(json, "\"Every\""),
          "inspect: %s", json ? json : message(NULL));
    porter_free(json);
    snprintf(path, sizeof path, "%s/every-type-encrypted.realm", fixtures);
    CHECK(porter_inspect_json(path, NULL, 0, &json, NULL) == PORTER_OK && json && strstr(json, "\"readable\": false") &&
              strstr(json, "\"reason\""),
          "inspect of an encrypted file without its key: %s", json ? json : message(NULL));
    porter_free(json);
    CHECK(porter_inspect_json(path, key_100_163, 64, &json, NULL) == PORTER_OK && json &&
              strstr(json, "\"encrypted\": true"),
          "inspect with the key: %s", json ? json : message(NULL));
    porter_free(json);
}

/* open / iterate / export / close, for valgrind's leak check. */
static void cycle(const char *fixtures) {
    char path[1024], out[1024];
    snprintf(path, sizeof path, "%s/every-type-encrypted.realm", fixtures);
    porter_file *file = NULL;
    if (porter_open(path, key_100_163, 64, 0, &file) != PORTER_OK) {
        CHECK(0, "cycle open: %s", message(NULL));
        return;
    }
    porter_cursor *cursor = NULL;
    if (porter_cursor_open(file, "Every", "TRUEPREDICATE", PORTER_CURSOR_EJSON_CANONICAL, &cursor) == PORTER_OK) {
        for (char *document = NULL; porter_cursor_next(cursor, &document, NULL) == PORTER_OK && document;)
            porter_free(document);
        porter_cursor_close(cursor);
    }
    snprintf(out, sizeof out, "%s/cycle", scratch);
    CHECK(porter_export(file, out, "bson", NULL, NULL) == PORTER_OK, "cycle export: %s", message(file));
    char command[1100];
    snprintf(command, sizeof command, "rm -rf '%s'", out);
    CHECK(system(command) == 0, "rm");
    porter_close(file);
}

/* --- Batches ----------------------------------------------------------------------------- */

/* porter_cursor_next_batch gives the documents porter_cursor_next gives, `[d1,d2]` per batch for
   text and concatenated for BSON, then the end; its argument errors are refused. */
static void test_batches(const char *fixtures) {
    char path[1024];
    snprintf(path, sizeof path, "%s/every-type.realm", fixtures);
    porter_file *file = NULL;
    CHECK(porter_open(path, NULL, 0, 0, &file) == PORTER_OK, "open %s: %s", path, message(NULL));
    if (!file) return;
    for (uint32_t flags = 0; flags <= PORTER_CURSOR_JSON; flags++) {
        porter_cursor *one = NULL, *many = NULL;
        CHECK(porter_cursor_open(file, "Every", NULL, flags, &one) == PORTER_OK, "cursor: %s", message(file));
        CHECK(porter_cursor_open(file, "Every", NULL, flags, &many) == PORTER_OK, "cursor: %s", message(file));
        if (!one || !many) return;
        size_t batches = 0, objects = 0;
        for (;;) {
            char *batch = NULL;
            size_t length = 0, count = 99;
            CHECK(porter_cursor_next_batch(many, 2, &batch, &length, &count) == PORTER_OK, "batch: %s",
                  message(many));
            if (count == 0) {
                CHECK(batch == NULL && length == 0, "the end of batches carries a buffer");
                break;
            }
            CHECK(count <= 2 && batch != NULL, "a batch of %zu", count);
            /* The same documents, one by one. */
            size_t offset = 0;
            if (flags != PORTER_CURSOR_BSON) CHECK(batch[offset++] == '[', "a text batch opens with '['");
            for (size_t i = 0; i < count; i++) {
                char *document = NULL;
                size_t document_length = 0;
                CHECK(porter_cursor_next(one, &document, &document_length) == PORTER_OK && document, "next");
                if (!document) break;
                CHECK(offset + document_length <= length && !memcmp(batch + offset, document, document_length),
                      "batch %zu document %zu differs from porter_cursor_next's", batches, i);
                offset += document_length;
                if (flags != PORTER_CURSOR_BSON)
                    CHECK(batch[offset++] == (i + 1 < count ? ',' : ']'), "separator after document %zu", i);
                porter_free(document);
            }
            CHECK(offset == length, "batch %zu: %zu of %zu bytes accounted for", batches, offset, length);
            if (flags != PORTER_CURSOR_BSON) CHECK(batch[length] == '\0', "a text batch is NUL-terminated");
            objects += count;
            batches++;
            porter_free(batch);
        }
        char *rest = (char *)1;
        CHECK(porter_cursor_next(one, &rest, NULL) == PORTER_OK && rest == NULL, "next_batch skipped documents");
        uint64_t expected = 0;
        porter_object_count(file, "Every", &expected);
        CHECK(objects == expected && objects > 0, "batches gave %zu objects of %llu", objects,
              (unsigned long long)expected);
        char *batch = NULL;
        size_t count = 0;
        CHECK(porter_cursor_next_batch(many, 0, &batch, NULL, &count) == PORTER_ERR_INVALID_ARGUMENT,
              "max_objects 0 accepted");
        CHECK(porter_cursor_next_batch(many, 5, NULL, NULL, &count) == PORTER_ERR_INVALID_ARGUMENT,
              "NULL documents accepted");
        CHECK(porter_cursor_next_batch(many, 5, &batch, NULL, NULL) == PORTER_ERR_INVALID_ARGUMENT,
              "NULL count accepted");
        porter_cursor_close(one);
        porter_cursor_close(many);
        CHECK(porter_cursor_next_batch(many, 5, &batch, NULL, &count) == PORTER_ERR_CLOSED_HANDLE,
              "a batch from a closed cursor");
    }
    porter_close(file);
}

/* --- The check before a copy ---------------------------------------------------------------- */

/* A file that opens but fails `porter check` (realm-core's upgrade test file of format 4 with an
   index that disagrees with its column): cursors and exports refuse it as `porter export` does,
   once per handle, unless it was opened with PORTER_OPEN_SKIP_CHECK. From ../shared when there. */
static void test_check_before_copy(int argc, char **argv) {
    char path[1024] = "";
    for (int i = 2; i < argc; i++) {
        snprintf(path, sizeof path, "%s/legacy/core/test_upgrade_database_4_10_to_11.realm", argv[i]);
        if (access(path, R_OK) == 0) break;
        path[0] = '\0';
    }
    if (!path[0]) {
        printf("skipped the check-before-copy test: legacy/core/test_upgrade_database_4_10_to_11.realm is not in "
               "the folders given (the shared Realm files are not on this machine)\n");
        return;
    }
    porter_file *file = NULL;
    CHECK(porter_open(path, NULL, 0, 0, &file) == PORTER_OK, "open %s: %s", path, message(NULL));
    if (!file) return;
    char *name = NULL;
    CHECK(porter_class_name(file, 0, &name) == PORTER_OK, "class 0: %s", message(file));
    porter_cursor *cursor = NULL;
    for (int round = 0; round < 2; round++) { /* the second time from the remembered outcome */
        int status = porter_cursor_open(file, name, NULL, PORTER_CURSOR_EJSON_CANONICAL, &cursor);
        CHECK(status == PORTER_ERR_NOT_A_REALM_FILE && cursor == NULL, "a file failing its check read (%d)", status);
        CHECK(strstr(message(file), ": refused: the file fails its check: ") != NULL, "message: %s", message(file));
    }
    char out[1100];
    snprintf(out, sizeof out, "%s/refused-export", scratch);
    CHECK(porter_export(file, out, "json", NULL, NULL) == PORTER_ERR_NOT_A_REALM_FILE, "a failing file exported");
    CHECK(access(out, F_OK) != 0, "a refused export left %s", out);
    porter_close(file);
    file = NULL;
    CHECK(porter_open(path, NULL, 0, PORTER_OPEN_SKIP_CHECK, &file) == PORTER_OK, "open with SKIP_CHECK: %s",
          message(NULL));
    if (file) {
        int status = porter_cursor_open(file, name, NULL, PORTER_CURSOR_EJSON_CANONICAL, &cursor);
        CHECK(status == PORTER_OK, "SKIP_CHECK still refused the cursor: %s", message(file));
        if (cursor) porter_cursor_close(cursor);
        porter_close(file);
    }
    porter_free(name);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s PORTER_BINARY FIXTURES_FOLDER [MORE_FOLDERS...]\n", argv[0]);
        return 64;
    }
    porter_binary = argv[1];
    for (int i = 0; i < 64; i++) {
        key_0_63[i] = (uint8_t)i;
        key_100_163[i] = (uint8_t)(100 + i);
    }
    snprintf(scratch, sizeof scratch, "/tmp/porter-c-test-XXXXXX");
    if (!mkdtemp(scratch)) return 1;
    CHECK(porter_abi_version() == PORTER_ABI_VERSION, "ABI %u, header %d", porter_abi_version(), PORTER_ABI_VERSION);
    CHECK(porter_version() && *porter_version(), "no version");
    const char *cycles = getenv("PORTER_TEST_CYCLES");
    if (cycles) {
        for (int i = 0; i < atoi(cycles); i++) cycle(argv[2]);
    } else {
        int files = 0;
        for (int i = 2; i < argc; i++) files += compare_folder(argv[i]);
        CHECK(files > 0, "no Realm file found in %s", argv[2]);
        test_exports(argv[2]);
        test_queries(argv[2]);
        test_threads(argv[2]);
        test_errors(argv[2]);
        test_check_before_copy(argc, argv);
        test_batches(argv[2]);
        cycle(argv[2]);
    }
    char command[300];
    snprintf(command, sizeof command, "rm -rf '%s'", scratch);
    if (system(command) != 0) fprintf(stderr, "cannot remove %s\n", scratch);
    printf("test_porter: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
