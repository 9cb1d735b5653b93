/*
 * porter_jni.c: the JNI glue between dev.porter.Native (Java) and porter.h (libporter.so).
 *
 * Kept thin: each function pins its arguments, makes one porter_* call, copies what the library
 * returned into a Java array, frees it with porter_free(), and turns a failure into a
 * dev.porter.PorterException carrying the status code and porter_last_error()'s message.
 * Text crosses as UTF-8 byte arrays (NUL-terminated on the way in), never as JNI strings, whose
 * "modified UTF-8" differs from UTF-8 for NUL and characters outside the BMP. A null array becomes
 * a NULL pointer, which the library refuses with PORTER_ERR_INVALID_ARGUMENT where it needs one.
 * Handles are the library's opaque values widened to jlong; they are never dereferenced here.
 */
#include <jni.h>
#include <stdint.h>
#include <string.h>

#include "porter.h"

static jclass exception_class;       /* dev.porter.PorterException (global reference) */
static jmethodID exception_factory;  /* PorterException.fromNative(int, byte[]) */
static jmethodID progress_method;    /* ProgressListener.onProgress(long, long) */

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
    (void)reserved;
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) return JNI_ERR;
    jclass local = (*env)->FindClass(env, "dev/porter/PorterException");
    if (!local) return JNI_ERR;
    exception_class = (*env)->NewGlobalRef(env, local);
    exception_factory =
        (*env)->GetStaticMethodID(env, exception_class, "fromNative", "(I[B)Ldev/porter/PorterException;");
    jclass listener = (*env)->FindClass(env, "dev/porter/ProgressListener");
    if (!exception_class || !exception_factory || !listener) return JNI_ERR;
    progress_method = (*env)->GetMethodID(env, listener, "onProgress", "(JJ)Z");
    if (!progress_method) return JNI_ERR;
    return JNI_VERSION_1_8;
}

#define FILE_HANDLE(value) ((porter_file *)(uintptr_t)(value))
#define CURSOR_HANDLE(value) ((porter_cursor *)(uintptr_t)(value))

/* A Java byte array (or NULL) as a C buffer for the length of one call. */
typedef struct {
    jbyteArray array;
    jbyte *bytes;
    jsize length;
} pinned;

/* Returns 0 when the JVM could not give the bytes (an OutOfMemoryError is then pending). */
static int pin(JNIEnv *env, jbyteArray array, pinned *p) {
    p->array = array;
    p->bytes = NULL;
    p->length = 0;
    if (!array) return 1;
    p->length = (*env)->GetArrayLength(env, array);
    p->bytes = (*env)->GetByteArrayElements(env, array, NULL);
    return p->bytes != NULL;
}

static void unpin(JNIEnv *env, pinned *p) {
    if (p->bytes) (*env)->ReleaseByteArrayElements(env, p->array, p->bytes, JNI_ABORT);
    p->bytes = NULL;
}

/* A string the Java side NUL-terminated (Native.cString); NULL stays NULL. */
static const char *c_string(const pinned *p) {
    return p->bytes && p->length > 0 && p->bytes[p->length - 1] == 0 ? (const char *)p->bytes : NULL;
}

/* `length` bytes as a new Java array (NULL for NULL data); the caller frees `data`. */
static jbyteArray java_bytes(JNIEnv *env, const char *data, size_t length) {
    if (!data) return NULL;
    if (length > (size_t)INT32_MAX) {
        jclass error = (*env)->FindClass(env, "java/lang/OutOfMemoryError");
        if (error) (*env)->ThrowNew(env, error, "a document larger than 2 GiB does not fit a Java array");
        return NULL;
    }
    jbyteArray array = (*env)->NewByteArray(env, (jsize)length);
    if (array) (*env)->SetByteArrayRegion(env, array, 0, (jsize)length, (const jbyte *)data);
    return array;
}

/* Throws the calling thread's last failure (the call just made on this thread) as a PorterException. */
static void throw_failure(JNIEnv *env, int status) {
    if ((*env)->ExceptionCheck(env)) return;
    char *message = porter_last_error(NULL);
    jbyteArray text = java_bytes(env, message, message ? strlen(message) : 0);
    porter_free(message);
    if ((*env)->ExceptionCheck(env)) return;
    jobject exception = (*env)->CallStaticObjectMethod(env, exception_class, exception_factory, (jint)status, text);
    if (exception && !(*env)->ExceptionCheck(env)) (*env)->Throw(env, (jthrowable)exception);
}

/* A buffer the library returned, as a Java array, freed here; NULL (and an exception) on failure. */
static jbyteArray take(JNIEnv *env, int status, char *buffer, size_t length) {
    if (status != PORTER_OK) {
        porter_free(buffer);
        throw_failure(env, status);
        return NULL;
    }
    jbyteArray array = java_bytes(env, buffer, length);
    porter_free(buffer);
    return array;
}

JNIEXPORT jint JNICALL Java_dev_porter_Native_abiVersion(JNIEnv *env, jclass cls) {
    (void)env, (void)cls;
    return (jint)porter_abi_version();
}

JNIEXPORT jint JNICALL Java_dev_porter_Native_headerAbiVersion(JNIEnv *env, jclass cls) {
    (void)env, (void)cls;
    return PORTER_ABI_VERSION;
}

JNIEXPORT jbyteArray JNICALL Java_dev_porter_Native_version(JNIEnv *env, jclass cls) {
    (void)cls;
    const char *version = porter_version(); /* static: not freed */
    return java_bytes(env, version, version ? strlen(version) : 0);
}

JNIEXPORT jlong JNICALL Java_dev_porter_Native_open(JNIEnv *env, jclass cls, jbyteArray path, jbyteArray key) {
    (void)cls;
    pinned p, k;
    if (!pin(env, path, &p)) return 0;
    if (!pin(env, key, &k)) {
        unpin(env, &p);
        return 0;
    }
    porter_file *file = NULL;
    int status = porter_open(c_string(&p), (const uint8_t *)k.bytes, (size_t)k.length, 0, &file);
    unpin(env, &k);
    unpin(env, &p);
    if (status != PORTER_OK) {
        throw_failure(env, status);
        return 0;
    }
    return (jlong)(uintptr_t)file;
}

JNIEXPORT jint JNICALL Java_dev_porter_Native_close(JNIEnv *env, jclass cls, jlong file) {
    (void)env, (void)cls;
    return porter_close(FILE_HANDLE(file));
}

JNIEXPORT jbyteArray JNICALL Java_dev_porter_Native_schemaJson(JNIEnv *env, jclass cls, jlong file) {
    (void)cls;
    char *json = NULL;
    size_t length = 0;
    int status = porter_schema_json(FILE_HANDLE(file), &json, &length);
    return take(env, status, json, length);
}

JNIEXPORT jlong JNICALL Java_dev_porter_Native_classCount(JNIEnv *env, jclass cls, jlong file) {
    (void)cls;
    size_t count = 0;
    int status = porter_class_count(FILE_HANDLE(file), &count);
    if (status != PORTER_OK) throw_failure(env, status);
    return (jlong)count;
}

JNIEXPORT jbyteArray JNICALL Java_dev_porter_Native_className(JNIEnv *env, jclass cls, jlong file, jlong index) {
    (void)cls;
    char *name = NULL;
    /* A negative index becomes a huge one, which the library refuses as out of range. */
    int status = porter_class_name(FILE_HANDLE(file), (size_t)index, &name);
    return take(env, status, name, name ? strlen(name) : 0);
}

JNIEXPORT jlong JNICALL Java_dev_porter_Native_objectCount(JNIEnv *env, jclass cls, jlong file, jbyteArray name) {
    (void)cls;
    pinned n;
    if (!pin(env, name, &n)) return 0;
    uint64_t count = 0;
    int status = porter_object_count(FILE_HANDLE(file), c_string(&n), &count);
    unpin(env, &n);
    if (status != PORTER_OK) throw_failure(env, status);
    return (jlong)count;
}

JNIEXPORT jlong JNICALL Java_dev_porter_Native_cursorOpen(JNIEnv *env, jclass cls, jlong file, jbyteArray name,
                                                          jbyteArray query, jint flags) {
    (void)cls;
    pinned n, q;
    if (!pin(env, name, &n)) return 0;
    if (!pin(env, query, &q)) {
        unpin(env, &n);
        return 0;
    }
    porter_cursor *cursor = NULL;
    int status = porter_cursor_open(FILE_HANDLE(file), c_string(&n), c_string(&q), (uint32_t)flags, &cursor);
    unpin(env, &q);
    unpin(env, &n);
    if (status != PORTER_OK) {
        throw_failure(env, status);
        return 0;
    }
    return (jlong)(uintptr_t)cursor;
}

JNIEXPORT jbyteArray JNICALL Java_dev_porter_Native_cursorNext(JNIEnv *env, jclass cls, jlong cursor) {
    (void)cls;
    char *document = NULL;
    size_t length = 0;
    int status = porter_cursor_next(CURSOR_HANDLE(cursor), &document, &length);
    return take(env, status, document, length); /* NULL at the end */
}

JNIEXPORT jint JNICALL Java_dev_porter_Native_cursorClose(JNIEnv *env, jclass cls, jlong cursor) {
    (void)env, (void)cls;
    return porter_cursor_close(CURSOR_HANDLE(cursor));
}

/* The Java listener of one export, and the exception it threw (which cancels the export). */
struct progress {
    JNIEnv *env;
    jobject listener;
    jthrowable thrown;
};

/* Runs on the thread that called porter_export(), inside the native method: env and local
   references are valid here. */
static int on_progress(uint64_t done, uint64_t total, void *context) {
    struct progress *p = context;
    JNIEnv *env = p->env;
    if (p->thrown) return 1;
    jboolean go_on = (*env)->CallBooleanMethod(env, p->listener, progress_method, (jlong)done, (jlong)total);
    if ((*env)->ExceptionCheck(env)) {
        p->thrown = (*env)->ExceptionOccurred(env);
        (*env)->ExceptionClear(env);
        return 1;
    }
    return go_on ? 0 : 1;
}

JNIEXPORT void JNICALL Java_dev_porter_Native_export(JNIEnv *env, jclass cls, jlong file, jbyteArray out,
                                                     jbyteArray format, jobject listener) {
    (void)cls;
    pinned o, f;
    if (!pin(env, out, &o)) return;
    if (!pin(env, format, &f)) {
        unpin(env, &o);
        return;
    }
    struct progress p = {env, listener, NULL};
    int status = porter_export(FILE_HANDLE(file), c_string(&o), c_string(&f), listener ? on_progress : NULL, &p);
    unpin(env, &f);
    unpin(env, &o);
    if (p.thrown) {
        (*env)->Throw(env, p.thrown);
    } else if (status != PORTER_OK) {
        throw_failure(env, status);
    }
}

typedef int (*report_fn)(const char *, const uint8_t *, size_t, char **, size_t *);

static jbyteArray report(JNIEnv *env, report_fn make, jbyteArray path, jbyteArray key) {
    pinned p, k;
    if (!pin(env, path, &p)) return NULL;
    if (!pin(env, key, &k)) {
        unpin(env, &p);
        return NULL;
    }
    char *json = NULL;
    size_t length = 0;
    int status = make(c_string(&p), (const uint8_t *)k.bytes, (size_t)k.length, &json, &length);
    unpin(env, &k);
    unpin(env, &p);
    return take(env, status, json, length);
}

JNIEXPORT jbyteArray JNICALL Java_dev_porter_Native_checkJson(JNIEnv *env, jclass cls, jbyteArray path,
                                                              jbyteArray key) {
    (void)cls;
    return report(env, porter_check_json, path, key);
}

JNIEXPORT jbyteArray JNICALL Java_dev_porter_Native_inspectJson(JNIEnv *env, jclass cls, jbyteArray path,
                                                                jbyteArray key) {
    (void)cls;
    return report(env, porter_inspect_json, path, key);
}
