package dev.onebeat.scheduler.engine.relay;

import dev.onebeat.transport.Delivery;
import dev.onebeat.transport.QueueRoute;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts and logs what a round came to, once its marks are done: each outcome in
 * {@link RelayMetrics}, a refused task at ERROR (someone must act on it), republished tasks at INFO,
 * claims lost before their marks at WARN.
 */
final class RelayRoundReport {

    // the relay's lines keep the logger they have always had, which operators filter on
    private static final Logger log = LoggerFactory.getLogger(RelayLoop.class);

    private final String broker;
    private final String node;
    private final RelayTransports transports;
    private final RelayMetrics metrics;

    RelayRoundReport(String broker, String node, RelayTransports transports, RelayMetrics metrics) {
        this.broker = broker;
        this.node = node;
        this.transports = transports;
        this.metrics = metrics;
    }

    /**
     * @param outcomes the round's rows and their outcomes
     * @param published how many of them the broker confirmed
     */
    void report(List<TaskOutcome> outcomes, int published) {
        Map<String, int[]> counts = new LinkedHashMap<>();
        int republished = 0;
        String firstRepublished = null;
        int retried = 0;
        String firstRetryError = null;
        for (TaskOutcome outcome : outcomes) {
            ClaimedTask task = outcome.task();
            // by queue: published, of them reclaimed, retried
            int[] count = counts.computeIfAbsent(task.task().queue(), q -> new int[3]);
            if (outcome.is(Delivery.Status.PUBLISHED)) {
                count[0]++;
                if (task.reclaimed()) {
                    count[1]++;
                    republished++;
                    firstRepublished = firstRepublished == null ? task.task().key().value() : firstRepublished;
                }
            } else if (outcome.is(Delivery.Status.RETRY)) {
                count[2]++;
                retried++;
                firstRetryError = firstRetryError == null ? outcome.delivery().error() : firstRetryError;
            } else if (outcome.is(Delivery.Status.REFUSED)) {
                QueueRoute route = transports.route(task.task().queue());
                metrics.failed(route);
                log.error("relay: broker refused task key={} {}; marked failed: {}", task.task().key().value(),
                        route.describe(), outcome.delivery().error());
            }
        }
        counts.forEach((queue, count) -> {
            QueueRoute route = transports.route(queue);
            if (count[0] > 0) {
                metrics.published(route, count[0], count[1]);
            }
            if (count[2] > 0) {
                metrics.retried(route, count[2]);
            }
        });
        if (republished > 0) {
            log.info("relay republished {} task(s) claimed by an earlier release whose lease ran out broker={} "
                    + "(first key={}); same ids and keys as before", republished, broker, firstRepublished);
        }
        if (published > 0) {
            log.debug("relay published {} task(s) broker={}", published, broker);
        }
        if (retried > 0 && log.isDebugEnabled()) {
            log.debug("relay will retry {} task(s) broker={}: {}", retried, broker, firstRetryError);
        }
    }

    /**
     * A round whose marks failed: its claim was lost, no row changed, and each of its rows will be published again.
     * The rows the broker confirmed here are counted published, and republished: the next relay sends them again
     * under the same key.
     *
     * @param outcomes the round's rows and their outcomes
     * @param published how many of them the broker confirmed
     * @param cause why the marks failed
     */
    void lost(List<TaskOutcome> outcomes, int published, Exception cause) {
        Map<String, Integer> confirmed = new LinkedHashMap<>();
        for (TaskOutcome outcome : outcomes) {
            if (outcome.is(Delivery.Status.PUBLISHED)) {
                confirmed.merge(outcome.task().task().queue(), 1, Integer::sum);
            }
        }
        confirmed.forEach((queue, count) -> {
            QueueRoute route = transports.route(queue);
            metrics.published(route, count, 0);
            metrics.republished(route, count);
        });
        log.warn("relay lost its claim of {} task(s) before marking them broker={} node={} (first key={}); {} of them "
                + "were published and go out again under the same key, the rest are retried: {}",
                outcomes.size(), broker, node, outcomes.get(0).task().task().key().value(), published,
                cause.toString());
    }
}
