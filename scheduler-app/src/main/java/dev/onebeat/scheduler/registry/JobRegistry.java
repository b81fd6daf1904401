package dev.onebeat.scheduler.registry;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Every job this replica knows, by name. Immutable once built. */
public final class JobRegistry {

    private final Map<String, RegisteredJob> jobs;

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
        this.jobs = Collections.unmodifiableMap(byName);
    }

    /** @return the job of that name, if registered */
    public Optional<RegisteredJob> find(String name) {
        return Optional.ofNullable(jobs.get(name));
    }

    /** @return all jobs in registration order */
    public Collection<RegisteredJob> all() {
        return jobs.values();
    }
}
