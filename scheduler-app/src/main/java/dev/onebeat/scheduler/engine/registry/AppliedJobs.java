package dev.onebeat.scheduler.engine.registry;

import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The runtime jobs of a namespace as a job file sees them ({@code onebeat_runtime_job.applied_from}, {@code applied}):
 * which file each was applied from, and its definition as applied, so that a change made by hand since (through the
 * API or the console) shows as drift. With {@link RuntimeJobStore}, the owner of {@code onebeat_runtime_job}.
 */
@Component
public class AppliedJobs {

    private final JdbcClient jdbc;
    private final JsonMapper json;

    AppliedJobs(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /**
     * A runtime job of a namespace.
     *
     * @param definition its definition now
     * @param appliedFrom the file it was last applied from, null if it was made by hand
     * @param drifted whether its definition differs from the one applied (a hand edit since)
     */
    public record Stored(String name, JsonNode definition, String appliedFrom, boolean drifted) {
    }

    /** @return the runtime jobs (not the schedules of code and configuration) of the namespace, by name */
    public List<Stored> inNamespace(String namespace) {
        return jdbc.sql("""
                        SELECT name, definition::text, applied_from, applied IS NOT NULL AND applied <> definition
                        FROM onebeat_runtime_job
                        WHERE kind = 'job' AND coalesce(definition ->> 'namespace', 'default') = ?
                        ORDER BY name""")
                .param(namespace)
                .query((rs, row) -> new Stored(rs.getString(1), json.readTree(rs.getString(2)), rs.getString(3),
                        rs.getBoolean(4)))
                .list();
    }

    /** @return the file the runtime job was last applied from, if it was */
    public Optional<String> appliedFrom(String name) {
        return jdbc.sql("SELECT applied_from FROM onebeat_runtime_job WHERE name = ? AND applied_from IS NOT NULL")
                .param(name).query(String.class).optional();
    }

    /** Marks the runtime job as applied from {@code file} with its stored definition, in the caller's transaction. */
    public void markApplied(String name, String file) {
        jdbc.sql("UPDATE onebeat_runtime_job SET applied_from = ?, applied = definition WHERE name = ?")
                .params(file, name).update();
    }
}
