package dev.onebeat.scheduler.engine.registry;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The catalog's jobs by namespace ({@code onebeat_job.namespace}): whose a job is, for the checks that keep one
 * namespace's users to its jobs, and how many jobs and schedules a namespace holds, for its limits. With
 * {@link JobCatalog}, {@link JobListing} and {@link ScheduleMembers}, the owner of {@code onebeat_job}.
 */
@Component
public class NamespaceJobs {

    private final JdbcClient jdbc;

    NamespaceJobs(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** @return the namespace of the stored job, if it is stored */
    public Optional<String> namespaceOf(String job) {
        return jdbc.sql("SELECT namespace FROM onebeat_job WHERE name = ?").param(job).query(String.class).optional();
    }

    /** @return the namespace of each of these jobs that is stored, by job */
    public Map<String, String> namespacesOf(List<String> jobs) {
        Map<String, String> namespaces = new HashMap<>();
        if (!jobs.isEmpty()) {
            jdbc.sql("SELECT name, namespace FROM onebeat_job WHERE name = ANY(?)")
                    .param(jobs.toArray(String[]::new))
                    .query(rs -> {
                        namespaces.put(rs.getString(1), rs.getString(2));
                    });
        }
        return namespaces;
    }

    /** @return how many jobs the namespace holds, {@code except} one of them not counted (null for none) */
    public long count(String namespace, String except) {
        return jdbc.sql("SELECT count(*) FROM onebeat_job WHERE namespace = ? AND name IS DISTINCT FROM ?")
                .params(namespace, except).query(Long.class).single();
    }

    /**
     * @return each schedule the namespace's jobs fire on (as {@link dev.onebeat.job.Schedule#describe()} writes it)
     *     with how many of them, {@code except} one job not counted (null for none)
     */
    public Map<String, Long> schedules(String namespace, String except) {
        Map<String, Long> schedules = new HashMap<>();
        jdbc.sql("""
                        SELECT schedule, count(*) FROM onebeat_job
                        WHERE namespace = ? AND name IS DISTINCT FROM ? GROUP BY schedule""")
                .params(namespace, except)
                .query(rs -> {
                    schedules.put(rs.getString(1), rs.getLong(2));
                });
        return schedules;
    }
}
