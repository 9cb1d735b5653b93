package dev.porter;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * The objects of one class, one document at a time, in object-key order (the order of
 * {@code porter export}); from {@link PorterFile#objects}. It closes its native cursor when the
 * last object was read; {@link #close()} closes it earlier (use try-with-resources when you may stop
 * early: an open cursor holds a reader thread and two file descriptors). A cursor stays valid after
 * its file is closed. Reading after {@link #close()} throws a {@link PorterException}
 * ({@link Status#CLOSED_HANDLE}). Not for several threads at once, as any Iterator.
 *
 * @param <T> {@code String} for the JSON formats, {@code byte[]} for BSON
 */
public final class PorterCursor<T> implements Iterator<T>, AutoCloseable {
    private final long handle;
    private final Function<byte[], T> decode;
    private final Cleaner.Cleanable cleanable;
    private byte[] ahead;
    private boolean ended;

    PorterCursor(long handle, Function<byte[], T> decode) {
        this.handle = handle;
        this.decode = decode;
        // A cursor dropped without close() releases its native cursor when collected.
        this.cleanable = PorterFile.CLEANER.register(this, () -> Native.cursorClose(handle));
    }

    /** Reads ahead one document; at the end closes the native cursor and returns false. */
    @Override
    public boolean hasNext() {
        if (ahead != null) return true;
        if (ended) return false;
        byte[] document;
        try {
            document = Native.cursorNext(handle);
        } finally {
            Reference.reachabilityFence(this);
        }
        if (document == null) {
            ended = true;
            cleanable.clean();
            return false;
        }
        ahead = document;
        return true;
    }

    @Override
    public T next() {
        if (!hasNext()) throw new NoSuchElementException("no more objects");
        byte[] document = ahead;
        ahead = null;
        return decode.apply(document);
    }

    /** The remaining objects as a sequential stream whose close() closes this cursor. */
    public Stream<T> stream() {
        Spliterator<T> spliterator = Spliterators.spliteratorUnknownSize(this, Spliterator.ORDERED | Spliterator.NONNULL);
        return StreamSupport.stream(spliterator, false).onClose(this::close);
    }

    /** Closes the native cursor; a second close does nothing. */
    @Override
    public void close() {
        cleanable.clean();
    }
}
