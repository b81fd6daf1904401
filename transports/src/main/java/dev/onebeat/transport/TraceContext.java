package dev.onebeat.transport;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A W3C Trace Context (<a href="https://www.w3.org/TR/trace-context/">traceparent, tracestate</a>) that a task carries
 * from the fire that dispatched it to its worker: stored with the outbox row in the fire's transaction, so that the
 * relay's publish continues the fire's trace on any replica and after a restart, and written into each message where
 * its worker ecosystem reads it (Celery headers, RQ {@code meta}, Dramatiq {@code options}, Kafka, AMQP and HTTP
 * headers). {@link #NONE} when tracing is off.
 *
 * @param traceparent {@code 00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>}, or {@code null} for none
 * @param tracestate vendor entries, or {@code null}
 */
public record TraceContext(String traceparent, String tracestate) {

    /** No trace: what every task carries while tracing is off. */
    public static final TraceContext NONE = new TraceContext(null, null);
    /** The header, meta or option name of {@link #traceparent()}. */
    public static final String TRACEPARENT = "traceparent";
    /** The header, meta or option name of {@link #tracestate()}. */
    public static final String TRACESTATE = "tracestate";

    private static final Pattern FORMAT = Pattern.compile("[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
    private static final int MAX_TRACESTATE = 512;

    public TraceContext {
        if (traceparent == null) {
            if (tracestate != null) {
                throw new IllegalArgumentException("tracestate: set without a traceparent, was '" + tracestate + "'");
            }
        } else {
            if (!FORMAT.matcher(traceparent).matches() || traceparent.startsWith("ff")
                    || traceparent.substring(3, 35).chars().allMatch(c -> c == '0')
                    || traceparent.substring(36, 52).chars().allMatch(c -> c == '0')) {
                throw new IllegalArgumentException("traceparent: not a W3C traceparent "
                        + "(00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>, ids not all zero), was '"
                        + traceparent + "'");
            }
            // printable ASCII, as W3C allows: it goes into HTTP, AMQP and Kafka headers as it is
            if (tracestate != null && (tracestate.isBlank() || tracestate.length() > MAX_TRACESTATE
                    || !tracestate.chars().allMatch(c -> c >= 0x20 && c <= 0x7e))) {
                throw new IllegalArgumentException("tracestate: blank, longer than " + MAX_TRACESTATE
                        + " characters or not printable ASCII, was '" + tracestate + "'");
            }
        }
    }

    /**
     * @return the context in these W3C fields, without a {@code tracestate} that is not valid, or {@link #NONE} if
     *     the {@code traceparent} is not: a trace is never a reason to refuse a task
     */
    public static TraceContext lenient(String traceparent, String tracestate) {
        if (traceparent == null) {
            return NONE;
        }
        try {
            return new TraceContext(traceparent, tracestate == null || tracestate.isBlank() ? null : tracestate);
        } catch (IllegalArgumentException e) {
            try {
                return new TraceContext(traceparent, null);
            } catch (IllegalArgumentException malformed) {
                return NONE;
            }
        }
    }

    /** @return whether there is a trace */
    public boolean present() {
        return traceparent != null;
    }

    /** @return the trace id, 32 hex digits, or {@code null} */
    public String traceId() {
        return traceparent == null ? null : traceparent.substring(3, 35);
    }

    /** @return {@value #TRACEPARENT} and, when set, {@value #TRACESTATE}; empty for {@link #NONE} */
    public Map<String, String> fields() {
        Map<String, String> fields = new LinkedHashMap<>();
        if (traceparent != null) {
            fields.put(TRACEPARENT, traceparent);
            if (tracestate != null) {
                fields.put(TRACESTATE, tracestate);
            }
        }
        return fields;
    }
}
