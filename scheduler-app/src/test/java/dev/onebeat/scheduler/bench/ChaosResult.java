package dev.onebeat.scheduler.bench;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a {@link ChaosRun} left, read after the calm.
 *
 * @param seed the run's seed
 * @param from the first instant of the faults
 * @param to the end of the faults (exclusive)
 * @param faults how often each fault was inflicted
 * @param sessionsTerminated database sessions terminated in all
 * @param replicaKills replicas killed with {@code kill -9} (and launched again)
 * @param exits replicas that exited by themselves (and were launched again), with their status
 * @param skewSeenMillis how far ahead of the run's clock the skewed replica dated its HTTP answers (whole seconds:
 *     up to 1 s below its skew), null without a skewed replica
 * @param skewLoggedMillis database time minus the skewed replica's time as its clock check logged it, null if none
 * @param expected instants due in {@code [from, to)}, over every job
 * @param outcomes those instants per outcome, as the instants API judges them ({@code none …} for none)
 * @param commits fires committed over the whole run
 * @param duplicateCommits (job, instant) committed more than once
 * @param duplicateKeys idempotency keys held by more than one outbox row
 * @param tasks outbox rows
 * @param unpublished outbox rows of instants before {@code to} not published after the calm, per status
 * @param earlyFires fires whose tasks were written before their instant by the database's clock, per replica
 * @param earliestMillis how far before its instant the earliest of them was written
 * @param brokerMessages messages on the broker
 * @param republishedKeys keys the broker holds more than one message of (allowed: the same key, deduplicated by
 *     consumers)
 * @param extraMessages messages beyond the first of their key
 * @param lostOnBroker rows of instants before {@code to} marked published whose key is not on the broker, each with
 *     its row's id, job, instant, times and attempts
 * @param unaccounted each instant without an outcome (or job listed short) with what the ledger holds of it
 */
public record ChaosResult(long seed, Instant from, Instant to, Map<ChaosFault, Integer> faults, int sessionsTerminated,
                          int replicaKills, List<String> exits, Long skewSeenMillis, Long skewLoggedMillis, long expected,
                          Map<String, Long> outcomes, long commits, long duplicateCommits, long duplicateKeys,
                          long tasks, Map<String, Long> unpublished, Map<String, Long> earlyFires, long earliestMillis,
                          long brokerMessages, long republishedKeys, long extraMessages, List<String> lostOnBroker,
                          List<String> unaccounted) {

    public ChaosResult {
        faults = Map.copyOf(faults);
        exits = List.copyOf(exits);
        outcomes = Map.copyOf(outcomes);
        unpublished = Map.copyOf(unpublished);
        earlyFires = Map.copyOf(earlyFires);
        unaccounted = List.copyOf(unaccounted);
        lostOnBroker = List.copyOf(lostOnBroker);
    }

    /** @return instants of the faults that ended with no outcome, and those the API did not list */
    public long withoutOutcome() {
        return outcomes.entrySet().stream().filter(entry -> entry.getKey().startsWith("none"))
                .mapToLong(Map.Entry::getValue).sum();
    }

    /** @return instants committed on time or late */
    public long committed() {
        return outcomes.getOrDefault("committed", 0L);
    }

    public long unpublishedCount() {
        return unpublished.values().stream().mapToLong(Long::longValue).sum();
    }

    public long earlyFireCount() {
        return earlyFires.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * @return the broken invariants, one line each: a (job, instant) committed twice, a key in two outbox rows, an
     *     instant without an outcome, a task unpublished after the calm; empty when the run held
     */
    public List<String> hardViolations() {
        List<String> broken = new ArrayList<>();
        if (duplicateCommits > 0) {
            broken.add(duplicateCommits + " (job, instant) committed more than once");
        }
        if (duplicateKeys > 0) {
            broken.add(duplicateKeys + " idempotency keys in more than one outbox row");
        }
        if (withoutOutcome() > 0) {
            broken.add(withoutOutcome() + " instants without an outcome " + unaccounted);
        }
        if (unpublishedCount() > 0) {
            broken.add(unpublishedCount() + " tasks not published after the calm " + unpublished);
        }
        return broken;
    }

    /** Prints the table. */
    public void print(PrintStream out) {
        out.printf(Locale.ROOT, "%nchaos run, seed %d: instants %s to %s (%d s)%n", seed, from, to,
                Duration.between(from, to).toSeconds());
        Map<String, Integer> inflicted = new TreeMap<>();
        faults.forEach((fault, count) -> inflicted.put(fault.option(), count));
        out.printf(Locale.ROOT, "  faults inflicted              %s; %d sessions terminated%n", inflicted,
                sessionsTerminated);
        out.printf(Locale.ROOT, "  replicas killed (kill -9)     %d%n", replicaKills);
        out.printf(Locale.ROOT, "  replicas exited by themselves %d%s%n", exits.size(),
                exits.isEmpty() ? "" : " " + exits);
        out.printf(Locale.ROOT, "  skewed replica's HTTP Date    %s%n", skewSeenMillis == null ? "none"
                : skewSeenMillis + " ms ahead (whole seconds)");
        out.printf(Locale.ROOT, "  skewed replica's clock check  %s%n", skewLoggedMillis == null ? "none logged"
                : "database time minus replica time = " + skewLoggedMillis + " ms");
        out.printf(Locale.ROOT, "%n  %-44s %8d%n", "expected instants (every job)", expected);
        new TreeMap<>(outcomes).forEach((label, count) -> out.printf(Locale.ROOT, "    %-42s %8d%n", label, count));
        row(out, "fires committed over the whole run", commits);
        row(out, "fires written before their instant (db time)", earlyFireCount());
        if (!earlyFires.isEmpty()) {
            out.printf(Locale.ROOT, "    by replica %s, the earliest %d ms early%n", new TreeMap<>(earlyFires),
                    earliestMillis);
        }
        row(out, "duplicate commits (ledger)", duplicateCommits);
        row(out, "duplicate keys (outbox)", duplicateKeys);
        row(out, "tasks in the outbox", tasks);
        row(out, "unpublished after the calm", unpublishedCount());
        row(out, "messages on the broker", brokerMessages);
        row(out, "republished keys (allowed)", republishedKeys);
        row(out, "  messages beyond a key's first", extraMessages);
        row(out, "published but not on the broker", lostOnBroker.size());
        lostOnBroker.forEach(line -> out.printf(Locale.ROOT, "  not on the broker: %s%n", line));
        unaccounted.forEach(line -> out.printf(Locale.ROOT, "  without an outcome: %s%n", line));
        List<String> broken = hardViolations();
        out.printf(Locale.ROOT, "%n%s%n", broken.isEmpty() ? "every hard invariant held"
                : "BROKEN: " + String.join("; ", broken));
    }

    private static void row(PrintStream out, String label, long value) {
        out.printf(Locale.ROOT, "  %-44s %8d%n", label, value);
    }
}
