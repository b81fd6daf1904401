package dev.onebeat.transport;

import java.util.Objects;

/**
 * What became of one task handed to a {@link Transport}.
 *
 * @param status published, to retry, or refused for good
 * @param error why it was not published, or {@code null} when it was
 */
public record Delivery(Status status, String error) {

    /** The three ways a publish can end. */
    public enum Status {
        /** The broker confirmed it; the row becomes {@code published}. */
        PUBLISHED,
        /** A passing failure (broker down, timeout, 5xx); the row is retried after a backoff. */
        RETRY,
        /** The broker refused it and will refuse it again (unroutable, 4xx, too large); the row becomes {@code failed}. */
        REFUSED
    }

    private static final Delivery PUBLISHED_DELIVERY = new Delivery(Status.PUBLISHED, null);

    public Delivery {
        Objects.requireNonNull(status, "status must not be null");
        if (status != Status.PUBLISHED && (error == null || error.isBlank())) {
            throw new IllegalArgumentException("a " + status + " delivery needs an error, was " + error);
        }
    }

    /** @return the outcome of a confirmed publish */
    public static Delivery published() {
        return PUBLISHED_DELIVERY;
    }

    /** @param error what went wrong, for {@code last_error} and the log */
    public static Delivery retry(String error) {
        return new Delivery(Status.RETRY, error);
    }

    /** @param error why the broker refused it, for {@code last_error} and the log */
    public static Delivery refused(String error) {
        return new Delivery(Status.REFUSED, error);
    }
}
