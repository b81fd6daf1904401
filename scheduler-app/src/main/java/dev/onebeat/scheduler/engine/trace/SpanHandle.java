package dev.onebeat.scheduler.engine.trace;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;

/**
 * One span of onebeat's work, current on the thread that opened it until {@link #close()} (a fire's), or not current
 * at all (a publish's, many of which run at once on a relay loop). Ends once; a no-op when tracing is off.
 */
public final class SpanHandle implements AutoCloseable {

    /** The handle of a span not made: tracing is off. */
    static final SpanHandle NONE = new SpanHandle(null, null);

    private final Span span;
    private final Tracer.SpanInScope scope;
    private boolean ended;

    SpanHandle(Span span, Tracer.SpanInScope scope) {
        this.span = span;
        this.scope = scope;
    }

    /** @return the span's context in W3C form, for the tasks it dispatches or the message it publishes */
    public W3cContext context() {
        return span == null ? W3cContext.NONE
                : W3cContext.of(span.context().traceId(), span.context().spanId(), span.context().sampled());
    }

    /** Records how the work ended: {@code onebeat.outcome}, and the error, if any. */
    public SpanHandle outcome(String outcome, Throwable error) {
        if (span != null) {
            span.tag("onebeat.outcome", outcome);
            if (error != null) {
                span.error(error);
            }
        }
        return this;
    }

    /** Ends the span and, for a current one, its scope. */
    @Override
    public void close() {
        if (span == null || ended) {
            return;
        }
        ended = true;
        if (scope != null) {
            scope.close();
        }
        span.end();
    }
}
