package dev.porter;

/** How a cursor gives each object: the documents {@code porter export --format ...} writes. */
public enum Format {
    /** Relaxed Extended JSON ({@code --format ejson}). */
    EJSON_RELAXED(0),
    /** Canonical Extended JSON ({@code --format ejson-canonical}). */
    EJSON_CANONICAL(1),
    /** One BSON document per object ({@code --format bson}); bytes, not text. */
    BSON(2),
    /** Plain JSON typed by the schema ({@code --format json}): dates keep their nanoseconds. */
    JSON(3);

    final int flags;

    Format(int flags) {
        this.flags = flags;
    }
}
