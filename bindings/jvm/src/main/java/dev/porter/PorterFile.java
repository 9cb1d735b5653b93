package dev.porter;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

/**
 * A Realm file (file formats 20-24, encrypted or not) opened read-only through Porter's C library
 * (porter.h): its schema, classes, counts, objects as Extended JSON and exports in every format
 * {@code porter export} writes. Nothing here writes the Realm file. Every failure is a
 * {@link PorterException} with the status code and the message the {@code porter} command line
 * prints. Safe to use from several threads: the library serializes calls on one file. Kotlin calls
 * these same classes ({@code PorterFile.open(path).use { ... }}).
 */
public final class PorterFile implements AutoCloseable {
    /**
     * Closes files and cursors that were dropped without close(). Each method keeps its object
     * reachable until its native call returned (Reference.reachabilityFence), so that the Cleaner
     * never closes a handle under a call still being made with it.
     */
    static final Cleaner CLEANER = Cleaner.create();

    private final long handle;
    private final Cleaner.Cleanable cleanable;

    private PorterFile(long handle) {
        this.handle = handle;
        this.cleanable = CLEANER.register(this, () -> Native.close(handle));
    }

    /** Opens a plain (unencrypted) Realm file. */
    public static PorterFile open(String path) {
        return open(path, null);
    }

    /** Opens a plain (unencrypted) Realm file. */
    public static PorterFile open(Path path) {
        return open(path.toString(), null);
    }

    /** Opens a Realm file; {@code key} is the 64-byte key of an encrypted file, null for a plain one. */
    public static PorterFile open(Path path, byte[] key) {
        return open(path.toString(), key);
    }

    /**
     * Opens a Realm file; {@code key} is the 64-byte key of an encrypted file, null for a plain one.
     *
     * @throws PorterException why it does not open: no such file, not a Realm file (and what it is
     *     instead), encrypted and no key, wrong key, truncated, damaged (where), another core's format
     */
    public static PorterFile open(String path, byte[] key) {
        return new PorterFile(Native.open(Native.cString(path), key));
    }

    /** The schema as the schema-file JSON {@code porter schema FILE} prints. */
    public String schemaJson() {
        try {
            return Native.text(Native.schemaJson(handle));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** The class names of the schema, embedded classes included, in schema order. */
    public List<String> classes() {
        try {
            long count = Native.classCount(handle);
            List<String> names = new ArrayList<>();
            for (long i = 0; i < count; i++) {
                names.add(Native.text(Native.className(handle, i)));
            }
            return Collections.unmodifiableList(names);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** The number of objects of {@code className} ({@link Status#NOT_FOUND} for no such class). */
    public long count(String className) {
        try {
            return Native.objectCount(handle, Native.cString(className));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Every object of the top-level class {@code className} as canonical Extended JSON. */
    public PorterCursor<String> objects(String className) {
        return objects(className, null, Format.EJSON_CANONICAL);
    }

    /**
     * The objects of the top-level class {@code className} that match {@code query} (a Realm Query
     * Language predicate as {@code porter export --query} takes it; null for every object), each the
     * canonical Extended JSON line {@code porter export --format ejson-canonical} writes.
     */
    public PorterCursor<String> objects(String className, String query) {
        return objects(className, query, Format.EJSON_CANONICAL);
    }

    /** As {@link #objects(String, String)}, in a text {@code format} (not {@link Format#BSON}: see {@link #bson}). */
    public PorterCursor<String> objects(String className, String query, Format format) {
        if (format == Format.BSON) {
            throw new IllegalArgumentException("BSON documents are bytes: use bson(className, query)");
        }
        return new PorterCursor<>(open(className, query, format), bytes -> new String(bytes, StandardCharsets.UTF_8));
    }

    /** The objects as BSON documents, the documents of {@code porter export --format bson}. */
    public PorterCursor<byte[]> bson(String className, String query) {
        return new PorterCursor<>(open(className, query, Format.BSON), bytes -> bytes);
    }

    /** {@link #objects(String, String)} as a stream; close the stream (try-with-resources) if you stop early. */
    public Stream<String> stream(String className, String query) {
        return objects(className, query).stream();
    }

    private long open(String className, String query, Format format) {
        if (format == null) throw new PorterException(Status.INVALID_ARGUMENT.code(), "the format is null");
        try {
            return Native.cursorOpen(handle, Native.cString(className), Native.cString(query), format.flags);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Exports as {@code porter export FILE --out outPath --format format}, without progress. */
    public void export(String outPath, String format) {
        export(outPath, format, null);
    }

    /**
     * Exports the file to {@code outPath} as {@code porter export FILE --out outPath --format format}
     * does: "bson", "json", "ejson", "ejson-canonical", "csv" (folders), "sqlite", "realm" (one file,
     * refused when it exists). Written under temporary names and renamed into place when complete:
     * after a failure or a cancellation nothing is left behind.
     *
     * @param listener told the progress; returning false cancels (may be null)
     * @throws PorterException with {@link Status#CANCELLED} when the listener cancelled
     */
    public void export(String outPath, String format, ProgressListener listener) {
        try {
            Native.export(handle, Native.cString(outPath), Native.cString(format), listener);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * The report {@code porter check --json FILE} prints, for any file, sound or not:
     * {"file", "ok", "kind", "diagnosis", "message", "evidence", "problems"}.
     */
    public static String check(String path, byte[] key) {
        return Native.text(Native.checkJson(Native.cString(path), key));
    }

    /**
     * The forensic summary {@code porter inspect --json} prints, whether or not the file opens:
     * format, header top refs, "readable", and "reason" or the classes and counts.
     */
    public static String inspect(String path, byte[] key) {
        return Native.text(Native.inspectJson(Native.cString(path), key));
    }

    /** The C library's ABI version (porter_abi_version()). */
    public static int abiVersion() {
        return Native.abiVersion();
    }

    /** Porter's version, e.g. "0.9.0". */
    public static String version() {
        return Native.text(Native.version());
    }

    /**
     * Closes the file; a second close does nothing. Cursors opened on it stay valid. Any other call
     * after close throws a {@link PorterException} with {@link Status#CLOSED_HANDLE}.
     */
    @Override
    public void close() {
        cleanable.clean();
    }
}
