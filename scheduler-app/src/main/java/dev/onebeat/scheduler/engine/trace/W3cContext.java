package dev.onebeat.scheduler.engine.trace;

/**
 * A span's context in W3C Trace Context form, as the outbox stores it for the tasks of a fire and a message carries
 * it to its worker: {@code 00-<trace id>-<span id>-<flags>}. The engine's own type: the fire path may not depend on
 * the transports ({@code EngineArchitectureTest}), whose {@code TraceContext} the outbox makes from it.
 *
 * @param traceparent the W3C {@code traceparent}, or {@code null} when there is no span
 * @param tracestate the W3C {@code tracestate}, or {@code null}
 */
public record W3cContext(String traceparent, String tracestate) {

    /** No span: tracing off, or no span current. */
    public static final W3cContext NONE = new W3cContext(null, null);

    /** @return the context of a span with these ids */
    static W3cContext of(String traceId, String spanId, Boolean sampled) {
        return new W3cContext("00-" + pad(traceId, 32) + "-" + pad(spanId, 16) + "-"
                + (Boolean.TRUE.equals(sampled) ? "01" : "00"), null);
    }

    /** A 64-bit trace id (B3's short form) is widened as W3C asks: zeros on the left. */
    private static String pad(String id, int length) {
        return id.length() >= length ? id : "0".repeat(length - id.length()) + id;
    }
}
