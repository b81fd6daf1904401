package dev.onebeat.worker.journal;

/** A journal statement or a handler's work failed; the transaction was or must be rolled back. */
public final class JournalException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    JournalException(String message, Throwable cause) {
        super(message, cause);
    }
}
