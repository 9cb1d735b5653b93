package dev.porter;

/**
 * A failure reported by the C library: its {@link #status()} (the porter.h code) and, as the
 * message, the one-line text the {@code porter} command line prints for the same failure
 * ("FILE: what went wrong", naming class, object and property where they apply).
 */
public class PorterException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int code;

    public PorterException(int code, String message) {
        super(message);
        this.code = code;
    }

    /** The porter.h status code (1-9). */
    public int code() {
        return code;
    }

    /** The status as an enum. */
    public Status status() {
        return Status.of(code);
    }

    /** Made by the JNI glue: the message arrives as UTF-8 bytes (JNI's own strings are "modified UTF-8"). */
    static PorterException fromNative(int code, byte[] message) {
        String text = message == null ? "(the library gave no message)" : new String(message, java.nio.charset.StandardCharsets.UTF_8);
        return new PorterException(code, text);
    }
}
