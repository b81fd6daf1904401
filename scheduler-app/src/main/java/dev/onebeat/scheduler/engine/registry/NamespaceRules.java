package dev.onebeat.scheduler.engine.registry;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.schedule.Descriptions;
import dev.onebeat.scheduler.engine.schedule.ScheduledInstant;
import dev.onebeat.scheduler.engine.schedule.Timetable;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * What a namespace asks of its jobs: that it is declared, that they send to the queues it may use
 * ({@link Namespaces#checkQueue}), and that they stay within its limits. The definition is checked wherever a job
 * comes from; the limits when one is created or changed through the API or a file, against the whole catalog, and at
 * start-up for the jobs of code and configuration.
 */
@Component
public class NamespaceRules {

    /** How many of a new job's coming instants are checked against {@code max-fires-per-instant}. */
    static final int INSTANTS_CHECKED = 500;
    /** ... within this far ahead. */
    static final Duration CHECKED_AHEAD = Duration.ofDays(31);

    private final Namespaces namespaces;
    private final NamespaceJobs jobs;
    private final JdbcClient jdbc;
    private final Clock clock;
    private final AppliedJobs applied;

    NamespaceRules(Namespaces namespaces, NamespaceJobs jobs, JdbcClient jdbc, Clock clock, AppliedJobs applied) {
        this.applied = applied;
        this.namespaces = namespaces;
        this.jobs = jobs;
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /**
     * @param where the job's path, leading the message ({@code onebeat.jobs[0] (job 'x')}, or empty for a request's)
     * @throws JobDefinitionException if its namespace is not declared, or its task goes to a queue it may not use
     */
    public void checkDefinition(String where, PeriodicJob job) {
        namespaces.require(Schedules.path(where, "namespace"), job.namespace());
        if (job instanceof DeclarativeJob declarative) {
            namespaces.checkQueue(Schedules.path(where, "queue"), job.namespace(), declarative.task().queue());
        }
    }

    /**
     * @return why a change through the API or the console of this runtime job is refused: it was applied from a file
     *     and its namespace refuses hand edits ({@code hand-edits: refuse}); empty when it is allowed
     */
    public Optional<String> handEditRefused(String name, String namespace) {
        if (namespaces.find(namespace).map(Namespaces.Namespace::handEdits).orElse(Namespaces.HandEdits.SHOW)
                != Namespaces.HandEdits.REFUSE) {
            return Optional.empty();
        }
        return applied.appliedFrom(name).map(file -> "job '" + name + "' is applied from " + file + " and namespace '"
                + namespace + "' refuses hand edits (hand-edits: refuse): change the file and apply it");
    }

    /**
     * Checks the jobs of code and configuration against their namespaces' {@code max-jobs}.
     *
     * @throws JobDefinitionException naming the namespace's property
     */
    public void checkAtStartup(Collection<RegisteredJob> registered) {
        Map<String, Long> counts = new TreeMap<>();
        registered.forEach(job -> counts.merge(job.job().namespace(), 1L, Long::sum));
        counts.forEach((name, count) -> namespaces.find(name).map(Namespaces.Namespace::maxJobs)
                .filter(max -> count > max).ifPresent(max -> {
                    throw new JobDefinitionException("onebeat.namespaces." + name + ".max-jobs: code and "
                            + "configuration define " + count + " jobs of namespace '" + name + "', more than its "
                            + max);
                }));
    }

    /**
     * Takes the namespace's lock until the caller's transaction ends, so that the changes of one namespace's jobs
     * (counted against its limits, or applied from a file) happen one after another on every replica. Take it before
     * any job's change lock.
     *
     * @param namespace the namespace, null for {@code default}
     */
    public void lock(String namespace) {
        jdbc.sql("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))")
                .param("onebeat.namespace:" + (namespace == null ? PeriodicJob.DEFAULT_NAMESPACE : namespace))
                .query((rs, row) -> true).single();
    }

    /**
     * Checks that storing {@code job} (new, or replacing its earlier definition) keeps its namespace within its
     * limits, in the caller's transaction, which holds the namespace's lock ({@link #lock}): two jobs created at once
     * on two replicas are counted one after the other.
     *
     * @throws NamespaceLimitException naming the limit, the namespace and the count
     */
    public void checkLimits(PeriodicJob job) {
        Namespaces.Namespace namespace = namespaces.find(job.namespace()).orElse(null);
        if (namespace == null || namespace.maxJobs() == null && namespace.maxFiresPerInstant() == null) {
            return;
        }
        if (namespace.maxJobs() != null && jobs.count(namespace.name(), job.name()) + 1 > namespace.maxJobs()) {
            throw new NamespaceLimitException("namespace '" + namespace.name() + "' holds "
                    + jobs.count(namespace.name(), job.name()) + " jobs, its limit (max-jobs) is "
                    + namespace.maxJobs() + ": job '" + job.name() + "' would be one more");
        }
        if (namespace.maxFiresPerInstant() != null) {
            checkFiresPerInstant(job, namespace, clock.instant());
        }
    }

    /** Counts, at each of the job's coming instants, the namespace's jobs whose schedules meet there. */
    private void checkFiresPerInstant(PeriodicJob job, Namespaces.Namespace namespace, Instant now) {
        List<Map.Entry<Timetable, Long>> others = new ArrayList<>();
        jobs.schedules(namespace.name(), job.name()).forEach((description, count) ->
                others.add(Map.entry(Timetable.of(Descriptions.parse(description)), count)));
        Timetable own = Timetable.of(job.schedule());
        Instant until = now.plus(CHECKED_AHEAD);
        ScheduledInstant next = own.next(now);
        for (int i = 0; i < INSTANTS_CHECKED && next != null && next.at().isBefore(until); i++) {
            Instant at = next.at();
            long firing = 1;
            for (Map.Entry<Timetable, Long> other : others) {
                ScheduledInstant theirs = other.getKey().next(at.minusNanos(1));
                if (theirs != null && theirs.at().equals(at)) {
                    firing += other.getValue();
                }
            }
            if (firing > namespace.maxFiresPerInstant()) {
                throw new NamespaceLimitException("namespace '" + namespace.name() + "' allows "
                        + namespace.maxFiresPerInstant() + " of its jobs to fire at one instant "
                        + "(max-fires-per-instant); with job '" + job.name() + "', " + firing + " would fire at " + at);
            }
            next = own.next(at);
        }
    }
}
