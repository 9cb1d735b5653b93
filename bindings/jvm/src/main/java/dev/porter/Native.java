package dev.porter;

import java.nio.charset.StandardCharsets;

/**
 * The JNI glue (libporterjni.so, src/main/c/porter_jni.c) over porter.h. Handles are the C
 * library's opaque handle values as longs (never addresses: a closed one is refused by the library,
 * never dereferenced). Text crosses as NUL-terminated UTF-8 byte arrays both ways, because JNI's own
 * strings are "modified UTF-8". Every failure is thrown as a {@link PorterException}.
 */
final class Native {
    /** PORTER_ABI_VERSION of the porter.h this binding is written for. */
    static final int ABI_VERSION = 1;

    static {
        // -Dporter.jni.library=/abs/path/libporterjni.so, else libporterjni.so on java.library.path
        // (on Android: the APK's jniLibs, beside libporter.so).
        String explicit = System.getProperty("porter.jni.library");
        if (explicit != null && !explicit.isEmpty()) {
            System.load(explicit);
        } else {
            System.loadLibrary("porterjni");
        }
        if (headerAbiVersion() != ABI_VERSION || abiVersion() != ABI_VERSION) {
            throw new UnsatisfiedLinkError("libporter ABI version " + abiVersion() + ", glue built against "
                    + headerAbiVersion() + ", this binding expects " + ABI_VERSION);
        }
    }

    private Native() {}

    static native int abiVersion();

    static native int headerAbiVersion();

    static native byte[] version();

    static native long open(byte[] path, byte[] key);

    /** Returns the status instead of throwing: closing is also done by a Cleaner. */
    static native int close(long file);

    static native byte[] schemaJson(long file);

    static native long classCount(long file);

    static native byte[] className(long file, long index);

    static native long objectCount(long file, byte[] className);

    static native long cursorOpen(long file, byte[] className, byte[] query, int flags);

    /** The next document, or null at the end. */
    static native byte[] cursorNext(long cursor);

    static native int cursorClose(long cursor);

    static native void export(long file, byte[] outPath, byte[] format, ProgressListener listener);

    static native byte[] checkJson(byte[] path, byte[] key);

    static native byte[] inspectJson(byte[] path, byte[] key);

    /** {@code text} as NUL-terminated UTF-8, or null for null (the library refuses a NULL where it needs a value). */
    static byte[] cString(String text) {
        if (text == null) return null;
        if (text.indexOf('\0') >= 0) {
            throw new PorterException(Status.INVALID_ARGUMENT.code(), "a NUL character inside " + text.replace("\0", "\\0"));
        }
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        byte[] terminated = new byte[utf8.length + 1];
        System.arraycopy(utf8, 0, terminated, 0, utf8.length);
        return terminated;
    }

    static String text(byte[] utf8) {
        return utf8 == null ? null : new String(utf8, StandardCharsets.UTF_8);
    }
}
