package dev.onebeat.scheduler.engine.relay;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * {@code relay} in {@code /actuator/health}: per broker, whether its relay publishes, keeps failing or
 * is stalled (a publish of this replica's past its deadline, or, for a transport without one, past
 * the claim lease: {@code overdueTasks}, {@code overdueSince}), since when, with the last error; and
 * {@code claimedOverdue}, the tasks of each queue still claimed after their lease in the whole outbox (by queue
 * workers, or the relay of an earlier release).
 * Always UP: a broker outage is not a reason to restart or unload a scheduler replica (fires still
 * commit, tasks wait in the outbox); the details and the {@code onebeat_outbox_oldest_pending_age_seconds},
 * {@code onebeat_relay_publishing_overdue} and {@code onebeat_relay_claimed_overdue} gauges are what to alert on.
 */
final class RelayHealth implements HealthIndicator {

    private final Relay relay;

    RelayHealth(Relay relay) {
        this.relay = relay;
    }

    @Override
    public Health health() {
        Map<String, Broker> brokers = new TreeMap<>();
        for (RelayLoopHealth.State state : relay.states()) {
            brokers.computeIfAbsent(state.broker(), name -> new Broker(state.queues())).add(state);
        }
        for (RelayLoopHealth.Overdue overdue : relay.overdue()) {
            Broker broker = brokers.get(overdue.broker());
            if (broker != null) {
                broker.add(overdue);
            }
        }
        Map<String, Object> details = new TreeMap<>();
        brokers.forEach((name, broker) -> details.put(name, broker.details()));
        Map<String, Long> claimedOverdue;
        try {
            claimedOverdue = relay.claimedOverdue();
        } catch (RuntimeException e) {
            claimedOverdue = Map.of();
        }
        return Health.up().withDetail("node", relay.node()).withDetail("brokers", details)
                .withDetail("claimedOverdue", claimedOverdue).build();
    }

    /** The loops of one broker together: failing if any is, published when any last did. */
    private static final class Broker {

        private final List<String> queues;
        private Instant lastPublished;
        private Instant failingSince;
        private String lastError;
        private int overdueTasks;
        private Instant overdueSince;

        Broker(List<String> queues) {
            this.queues = queues;
        }

        void add(RelayLoopHealth.State state) {
            lastPublished = later(lastPublished, state.lastPublished());
            if (state.failingSince() != null) {
                failingSince = failingSince == null || state.failingSince().isBefore(failingSince)
                        ? state.failingSince() : failingSince;
                lastError = state.lastError();
            } else if (lastError == null) {
                lastError = state.lastError();
            }
        }

        void add(RelayLoopHealth.Overdue overdue) {
            overdueTasks += overdue.tasks();
            overdueSince = overdueSince == null || overdue.since().isBefore(overdueSince) ? overdue.since() : overdueSince;
        }

        Map<String, Object> details() {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("queues", queues);
            details.put("state", overdueSince != null ? "stalled" : failingSince != null ? "failing"
                    : lastPublished != null ? "publishing" : "idle");
            details.put("overdueTasks", overdueTasks);
            details.put("overdueSince", overdueSince == null ? null : overdueSince.toString());
            details.put("lastPublished", lastPublished == null ? null : lastPublished.toString());
            details.put("failingSince", failingSince == null ? null : failingSince.toString());
            details.put("lastError", lastError);
            return details;
        }

        private static Instant later(Instant a, Instant b) {
            return a == null ? b : b == null ? a : a.isAfter(b) ? a : b;
        }
    }
}
