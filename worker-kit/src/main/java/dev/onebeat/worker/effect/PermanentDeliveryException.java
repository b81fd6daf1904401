package dev.onebeat.worker.effect;

/** A delivery failure that a retry would repeat, such as a request the receiver rejected as invalid. */
public final class PermanentDeliveryException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public PermanentDeliveryException(String message) {
        super(message);
    }

    public PermanentDeliveryException(String message, Throwable cause) {
        super(message, cause);
    }
}
