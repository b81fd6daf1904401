package dev.onebeat.scheduler.engine.registry;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every job this replica knows, by name: those defined in code and configuration, fixed at start-up,
 * overlaid with the runtime jobs and new schedules stored in the database ({@link RuntimeJobStore}),
 * which are swapped in whole whenever the stored ones change.
 */
public final class JobRegistry {

    private final Map<String, RegisteredJob> defined;
    private volatile Map<String, RegisteredJob> jobs;
    private volatile long generation;

    /**
     * @param jobs validated jobs
     * @return the registry
     * @throws JobDefinitionException if two jobs share a name
     */
    public static JobRegistry of(List<RegisteredJob> jobs) {
        return new JobRegistry(jobs);
    }

    private JobRegistry(List<RegisteredJob> jobs) {
        Map<String, RegisteredJob> byName = new LinkedHashMap<>();
        for (RegisteredJob job : jobs) {
            RegisteredJob previous = byName.putIfAbsent(job.name(), job);
            if (previous != null) {
                throw new JobDefinitionException("job '" + job.name() + "' is defined twice: by " + previous.origin()
                        + " and by " + job.origin() + "; job names must be unique");
            }
        }
        this.defined = Collections.unmodifiableMap(byName);
        this.jobs = defined;
    }

    /** @return the job of that name, if registered, with its stored schedule if it was rescheduled */
    public Optional<RegisteredJob> find(String name) {
        return Optional.ofNullable(jobs.get(name));
    }

    /** @return the job as defined in code or configuration, ignoring any stored schedule */
    public Optional<RegisteredJob> defined(String name) {
        return Optional.ofNullable(defined.get(name));
    }

    /** @return the jobs defined in code and configuration, as defined, in registration order */
    public Collection<RegisteredJob> definedJobs() {
        return defined.values();
    }

    /** @return all jobs: those defined in code and configuration first, in registration order */
    public Collection<RegisteredJob> all() {
        return jobs.values();
    }

    /** @return a number that changes whenever the set of jobs or any of their definitions may have changed */
    public long generation() {
        return generation;
    }

    /**
     * Changes the runtime overlay: each job of {@code changed} adds or replaces a runtime job or a defined one's
     * schedule, and each name of {@code removed} leaves it (a runtime job goes, a defined job gets its own schedule
     * back).
     */
    void overlay(Collection<RegisteredJob> changed, Collection<String> removed) {
        if (changed.isEmpty() && removed.isEmpty()) {
            return;
        }
        Map<String, RegisteredJob> merged = new LinkedHashMap<>(jobs);
        for (String name : removed) {
            RegisteredJob own = defined.get(name);
            if (own == null) {
                merged.remove(name);
            } else {
                merged.put(name, own);
            }
        }
        changed.forEach(job -> merged.put(job.name(), job));
        jobs = Collections.unmodifiableMap(merged);
        generation++;
    }

    /** Replaces the runtime overlay: each job either adds a runtime job or replaces a defined one's schedule. */
    void overlay(Collection<RegisteredJob> runtime) {
        Map<String, RegisteredJob> merged = new LinkedHashMap<>(defined);
        runtime.forEach(job -> merged.put(job.name(), job));
        jobs = Collections.unmodifiableMap(merged);
        generation++;
    }
}
