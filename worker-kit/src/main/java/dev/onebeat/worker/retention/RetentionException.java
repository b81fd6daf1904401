package dev.onebeat.worker.retention;

/** A retention delete failed; batches committed before it stay deleted. */
public final class RetentionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    RetentionException(String message, Throwable cause) {
        super(message, cause);
    }
}
