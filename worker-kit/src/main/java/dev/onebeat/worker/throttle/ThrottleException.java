package dev.onebeat.worker.throttle;

/** The throttle statement failed; whether the window was taken is unknown. */
public final class ThrottleException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    ThrottleException(String message, Throwable cause) {
        super(message, cause);
    }
}
