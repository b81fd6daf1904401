package dev.onebeat.scheduler.engine.relay;

import dev.onebeat.scheduler.engine.trace.SpanHandle;
import dev.onebeat.scheduler.engine.trace.Traces;
import dev.onebeat.scheduler.engine.trace.W3cContext;
import dev.onebeat.transport.Delivery;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.TraceContext;
import dev.onebeat.transport.Transport;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands a round's claimed rows to their queues' transports, queue by queue, keeping the claim alive while
 * it does. A transport that throws, or answers with the wrong number of outcomes, is discarded (the
 * next round makes a new one, on a new connection if it had its own) and each of its tasks is to
 * retry.
 */
final class RelayPublisher {

    // the relay's lines keep the logger they have always had, which operators filter on
    private static final Logger log = LoggerFactory.getLogger(RelayLoop.class);

    private final RelayTransports transports;
    private final ClaimRenewal renewal;
    private final Duration claimLease;
    private final Clock clock;
    private final Traces traces;

    RelayPublisher(RelayTransports transports, ClaimRenewal renewal, Duration claimLease, Clock clock, Traces traces) {
        this.traces = traces;
        this.transports = transports;
        this.renewal = renewal;
        this.claimLease = claimLease;
        this.clock = clock;
    }

    /**
     * @param claim the rows just claimed, by id
     * @param health the loop's: whether its rounds have been failing, which quiets the log of another failure,
     *     and where the publish under way is shown while it lasts
     * @return each row with its outcome: first those whose payload is unreadable, refused, then queue by queue in
     *     the order the queues first appear
     */
    List<TaskOutcome> publish(RelayClaim claim, RelayLoopHealth health) {
        List<ClaimedTask> claimed = claim.rows();
        boolean failing = health.failing();
        Map<String, List<ClaimedTask>> byQueue = new LinkedHashMap<>();
        List<TaskOutcome> outcomes = new ArrayList<>(claimed.size());
        for (ClaimedTask task : claimed) {
            if (task.unreadable() != null) {
                outcomes.add(new TaskOutcome(task, Delivery.refused(task.unreadable())));
            } else {
                byQueue.computeIfAbsent(task.task().queue(), q -> new ArrayList<>()).add(task);
            }
        }
        try (ClaimRenewal.Held held = renewal.hold(claim)) {
            health.publishing(held);
            for (List<ClaimedTask> tasks : byQueue.values()) {
                if (held.lost()) {
                    // the claim's transaction is gone: another relay may hold these rows now, so sending them would
                    // send them twice for sure. They go out from whichever relay claims them next
                    Delivery retry = Delivery.retry("the claim was lost before this queue's publish");
                    tasks.forEach(task -> outcomes.add(new TaskOutcome(task, retry)));
                    continue;
                }
                QueueRoute route = transports.route(tasks.get(0).task().queue());
                Instant started = clock.instant();
                List<Delivery> deliveries = publish(route, tasks, failing, held);
                Duration took = Duration.between(started, clock.instant());
                if (took.compareTo(claimLease) > 0 && !held.intact()) {
                    warnPastLease(route, tasks.size(), took);
                }
                for (int i = 0; i < tasks.size(); i++) {
                    outcomes.add(new TaskOutcome(tasks.get(i), deliveries.get(i)));
                }
            }
        } finally {
            health.publishing(null);
        }
        return outcomes;
    }

    /**
     * A publish that outlasts the claim lease while its keep-alives fail (or come too late) lets another
     * relay take the same rows and publish them again (same keys, so harmless to deduplicating
     * consumers, but avoidable): say how to avoid it.
     */
    private void warnPastLease(QueueRoute route, int tasks, Duration took) {
        log.warn("relay: publishing {} task(s) to {} took {} ms, longer than the claim lease ({} ms); another "
                + "relay may have published them again. Lower onebeat.relay.batch-size or raise "
                + "onebeat.relay.claim-lease", tasks, route.describe(), took.toMillis(), claimLease.toMillis());
    }

    private List<Delivery> publish(QueueRoute route, List<ClaimedTask> tasks, boolean failing, ClaimRenewal.Held held) {
        List<OutboundTask> outbound = new ArrayList<>(tasks.size());
        List<SpanHandle> spans = new ArrayList<>(traces.on() ? tasks.size() : 0);
        try {
            for (ClaimedTask claimed : tasks) {
                outbound.add(traces.on() ? traced(claimed.task(), route, spans) : claimed.task());
            }
            Transport transport = transports.transport(route);
            held.publishing(route.describe(), transport.deadline(tasks.size()));
            List<Delivery> outcomes = transport.publish(outbound);
            if (outcomes == null || outcomes.size() != tasks.size()) {
                throw new IllegalStateException("transport " + route.transport() + " returned "
                        + (outcomes == null ? "null" : outcomes.size() + " outcomes") + " for " + tasks.size() + " tasks");
            }
            for (int i = 0; i < spans.size(); i++) {
                Delivery outcome = outcomes.get(i);
                spans.get(i).outcome(outcome.status().name().toLowerCase(Locale.ROOT),
                        outcome.error() == null ? null : new IllegalStateException(outcome.error()));
            }
            return outcomes;
        } catch (Exception e) {
            spans.forEach(span -> span.outcome("retry", e));
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            String error = e.getClass().getSimpleName() + ": " + e.getMessage();
            if (!failing) {
                log.warn("relay could not publish {} task(s) to {}, retrying with backoff: {}", tasks.size(),
                        route.describe(), error);
            } else {
                log.debug("relay still cannot publish to {}: {}", route.describe(), error);
            }
            transports.discard(route);
            List<Delivery> retry = new ArrayList<>(tasks.size());
            Delivery outcome = Delivery.retry(error);
            for (int i = 0; i < tasks.size(); i++) {
                retry.add(outcome);
            }
            return retry;
        } finally {
            spans.forEach(SpanHandle::close);
        }
    }

    /**
     * The task as it is published: its publish span started, a child of the fire's context stored with the row, and
     * the span's context in place of that one, for the worker.
     */
    private OutboundTask traced(OutboundTask task, QueueRoute route, List<SpanHandle> spans) {
        TraceContext stored = task.payload().trace();
        SpanHandle span = traces.publish(stored.traceparent(), task.task(), task.queue(), route.transport(),
                task.key().value());
        spans.add(span);
        W3cContext context = span.context();
        return task.withPayload(task.payload().withTrace(TraceContext.lenient(context.traceparent(),
                stored.tracestate())));
    }
}
