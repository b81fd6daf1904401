package dev.onebeat.scheduler.engine.trace;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The spans of onebeat's own work. A fire of one job is a span {@value #FIRE} (job, instant, trigger, node, outcome),
 * the fires of one schedule's instant that share a transaction are one span {@value #BATCH} (the number of jobs);
 * each is current while its transaction runs, so every task it dispatches stores the span's W3C context with its
 * outbox row ({@link #current()}). The relay's publish of a task is a span {@value #PUBLISH}, child of that stored
 * context on whichever replica publishes and however long after, and the message carries the publish span's context
 * to the worker.
 *
 * <p>Made with Micrometer Tracing, so that Spring Boot's configuration exports them (OTLP by default with the
 * OpenTelemetry starter). {@link #OFF} makes nothing and costs a branch: what a replica uses unless
 * {@code management.tracing.export.enabled=true}.
 */
public final class Traces {

    /** The span of one job's fire. */
    public static final String FIRE = "onebeat.fire";
    /** The span of the fires of one schedule's instant made in one transaction. */
    public static final String BATCH = "onebeat.fire.batch";
    /** The span of one task's publish by the relay. */
    public static final String PUBLISH = "onebeat.publish";
    /** Tracing off: no span, no context. */
    public static final Traces OFF = new Traces(null);

    private static final Pattern TRACEPARENT = Pattern.compile("00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})");

    private final Tracer tracer;

    /** @param tracer the application's tracer, or {@code null} for {@link #OFF} */
    public Traces(Tracer tracer) {
        this.tracer = tracer == Tracer.NOOP ? null : tracer;
    }

    /** @return whether spans are made */
    public boolean on() {
        return tracer != null;
    }

    /** Starts the span of a fire of one job, current on this thread until the handle is closed. */
    public SpanHandle fire(String job, Instant scheduledAt, String trigger, String node) {
        return tracer == null ? SpanHandle.NONE
                : startCurrent(tracer.nextSpan().name(FIRE).tag("onebeat.job", job), scheduledAt, trigger, node);
    }

    /** Starts the span of the fires of {@code jobs} jobs of one instant in one transaction, current until closed. */
    public SpanHandle batch(int jobs, Instant scheduledAt, String trigger, String node) {
        return tracer == null ? SpanHandle.NONE
                : startCurrent(tracer.nextSpan().name(BATCH).tag("onebeat.jobs", jobs), scheduledAt, trigger, node);
    }

    /** Tags a fire's span with what every fire has, starts it and makes it current on this thread. */
    private SpanHandle startCurrent(Span span, Instant scheduledAt, String trigger, String node) {
        Span started = span.tag("onebeat.scheduled_at", scheduledAt.toString()).tag("onebeat.trigger", trigger)
                .tag("onebeat.node", node).start();
        return new SpanHandle(started, tracer.withSpan(started));
    }

    /** @return the current span's context, for the tasks being dispatched; {@link W3cContext#NONE} without one */
    public W3cContext current() {
        if (tracer == null) {
            return W3cContext.NONE;
        }
        Span span = tracer.currentSpan();
        return span == null ? W3cContext.NONE
                : W3cContext.of(span.context().traceId(), span.context().spanId(), span.context().sampled());
    }

    /**
     * Starts the span of one task's publish, child of the context the task was stored with (a new trace if it has
     * none or it is not W3C), not current: a relay loop publishes a batch of tasks of many fires at once.
     *
     * @param parent the task's stored {@code traceparent}, or {@code null}
     * @param system the transport ({@code celery}, {@code rq}, …), OpenTelemetry's {@code messaging.system}
     */
    public SpanHandle publish(String parent, String task, String queue, String system, String key) {
        if (tracer == null) {
            return SpanHandle.NONE;
        }
        Span.Builder builder = tracer.spanBuilder().name(PUBLISH).kind(Span.Kind.PRODUCER)
                .tag("messaging.system", system).tag("messaging.destination.name", queue)
                .tag("messaging.operation.type", "send").tag("onebeat.task", task)
                .tag("onebeat.idempotency_key", key);
        Matcher context = parent == null ? null : TRACEPARENT.matcher(parent);
        if (context != null && context.matches()) {
            TraceContext remote = tracer.traceContextBuilder().traceId(context.group(1)).spanId(context.group(2))
                    .sampled((Integer.parseInt(context.group(3), 16) & 1) == 1).build();
            builder.setParent(remote);
        } else {
            builder.setNoParent();
        }
        return new SpanHandle(builder.start(), null);
    }
}
