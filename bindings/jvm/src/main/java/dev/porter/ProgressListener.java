package dev.porter;

/**
 * Progress of {@link PorterFile#export}: called with 0 before the first object, every 256 objects
 * and once at the end, on the thread that called export. Return {@code false} to cancel: the export
 * stops within one object, removes what it staged and throws a {@link PorterException} with
 * {@link Status#CANCELLED}. A listener that throws cancels the same way, and its exception is
 * rethrown by export.
 */
@FunctionalInterface
public interface ProgressListener {
    /** {@code done} objects written of {@code total} (0 when unknown); {@code true} to go on. */
    boolean onProgress(long done, long total);
}
