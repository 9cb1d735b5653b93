package dev.porter;

/** The status codes of porter.h ({@code porter_status}); their numbers never change within an ABI version. */
public enum Status {
    /** A null argument, an out-of-range index, unknown flags, a handle of the wrong kind. */
    INVALID_ARGUMENT(1),
    /** The file or cursor was closed already. */
    CLOSED_HANDLE(2),
    /** A file is missing, is a folder, cannot be read or written, or an output exists already. */
    IO(3),
    /** Not a readable Realm file: foreign, empty, truncated, damaged, missing or wrong key, another core's format. */
    NOT_A_REALM_FILE(4),
    /** No such class. */
    NOT_FOUND(5),
    /** The request does not fit the file: a query's syntax or property, a key for a plain file, an embedded class. */
    USAGE(6),
    /** The progress listener asked to stop; nothing was written. */
    CANCELLED(7),
    /** A stored value that cannot be written as asked. */
    INVALID_DATA(8),
    /** Anything else (out of memory, an internal error), and codes this binding does not know. */
    OTHER(9);

    private final int code;

    Status(int code) {
        this.code = code;
    }

    /** The number porter.h gives this status. */
    public int code() {
        return code;
    }

    /** The status of {@code code}; {@link #OTHER} for a number this binding does not know. */
    public static Status of(int code) {
        for (Status status : values()) {
            if (status.code == code) return status;
        }
        return OTHER;
    }
}
