package dev.onebeat.scheduler.engine.cluster;

import dev.onebeat.scheduler.boot.database.StatementChunks;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * {@code onebeat_node}: what each replica computes instants with (its JDK's time-zone data and Java
 * version), keyed by its Quartz instance id, and when it was last seen; and {@code onebeat_node_job}, the jobs
 * each replica registers. Times are the database's.
 */
@Component
class NodeTable {

    /** Names per statement of a replica's registrations. */
    static final int CHUNK = 10_000;

    private final JdbcClient jdbc;

    NodeTable(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * A recorded replica.
     *
     * @param instanceId its Quartz instance id
     * @param tzdata the tzdb version of its JDK ({@code 2025a})
     * @param javaVersion its Java runtime version
     * @param startedAt when it recorded itself at start-up
     * @param seenAt when it last said it was running
     */
    record Row(String instanceId, String tzdata, String javaVersion, Instant startedAt, Instant seenAt) {
    }

    /** Records a replica starting: its versions, started and seen now. */
    void started(String instanceId, String tzdata, String javaVersion) {
        jdbc.sql("""
                        INSERT INTO onebeat_node (instance_id, tzdata, java_version) VALUES (?, ?, ?)
                        ON CONFLICT (instance_id) DO UPDATE SET tzdata = EXCLUDED.tzdata,
                            java_version = EXCLUDED.java_version, started_at = now(), seen_at = now()
                        """)
                .params(instanceId, tzdata, javaVersion)
                .update();
    }

    /** Marks a running replica seen now, recording it again if its row was forgotten meanwhile. */
    void seen(String instanceId, String tzdata, String javaVersion) {
        jdbc.sql("""
                        INSERT INTO onebeat_node (instance_id, tzdata, java_version) VALUES (?, ?, ?)
                        ON CONFLICT (instance_id) DO UPDATE SET seen_at = now()
                        """)
                .params(instanceId, tzdata, javaVersion)
                .update();
    }

    /** Deletes the rows of replicas not seen for {@code age}, with the jobs they registered. @return how many */
    int forgetUnseenFor(Duration age) {
        // CHUNK rows a statement: a replica of a million jobs left a million rows, past the socket timeout in one
        int deleted;
        do {
            deleted = jdbc.sql("""
                            DELETE FROM onebeat_node_job WHERE ctid = ANY(ARRAY(
                                SELECT r.ctid FROM onebeat_node_job r WHERE NOT EXISTS (
                                    SELECT 1 FROM onebeat_node n WHERE n.instance_id = r.instance_id
                                      AND n.seen_at >= now() - make_interval(secs => ?))
                                LIMIT ?))""")
                    .params(age.toSeconds(), CHUNK)
                    .update();
        } while (deleted == CHUNK);
        return jdbc.sql("DELETE FROM onebeat_node WHERE seen_at < now() - make_interval(secs => ?)")
                .param(age.toSeconds())
                .update();
    }

    /**
     * Makes {@code names} the jobs the replica registers, in the caller's transaction: those it no longer
     * registers go, the others are added. Only the difference is written, {@value #CHUNK} names a statement: with a
     * million jobs one statement over all of them ran past the driver's socket timeout (5 s) and a replica could not
     * start. (A replica's instance id is new at each start by default, so a start writes every row once.)
     */
    void registers(String instanceId, Collection<String> names) {
        Set<String> wanted = new HashSet<>(names);
        Set<String> present = new HashSet<>();
        List<String> gone = new ArrayList<>();
        jdbc.sql("SELECT job_name FROM onebeat_node_job WHERE instance_id = ?").param(instanceId)
                .query((ResultSet rs) -> {
                    String name = rs.getString(1);
                    if (wanted.contains(name)) {
                        present.add(name);
                    } else {
                        gone.add(name);
                    }
                });
        // in name order, as before: two writers of the same rows take their locks in one order
        gone.sort(null);
        for (List<String> chunk : StatementChunks.of(gone, CHUNK)) {
            jdbc.sql("DELETE FROM onebeat_node_job WHERE instance_id = ? AND job_name = ANY(?::varchar[])")
                    .params(instanceId, chunk.toArray(String[]::new))
                    .update();
        }
        List<String> added = wanted.stream().filter(name -> !present.contains(name)).sorted().toList();
        for (List<String> chunk : StatementChunks.of(added, CHUNK)) {
            jdbc.sql("""
                            INSERT INTO onebeat_node_job (instance_id, job_name)
                            SELECT ?, u.name FROM unnest(?::varchar[]) AS u(name) ORDER BY u.name
                            ON CONFLICT DO NOTHING""")
                    .params(instanceId, chunk.toArray(String[]::new))
                    .update();
        }
        registrationChanged(instanceId);
    }


    /** Notes that what the replica registers changed: the orphan judgement looks at this to tell whether to judge. */
    void registrationChanged(String instanceId) {
        jdbc.sql("UPDATE onebeat_node SET registered_at = clock_timestamp() WHERE instance_id = ?").param(instanceId)
                .update();
    }

    /** @return every recorded replica, by instance id */
    List<Row> all() {
        return jdbc.sql("""
                        SELECT instance_id, tzdata, java_version, started_at, seen_at FROM onebeat_node
                        ORDER BY instance_id
                        """)
                .query((rs, row) -> new Row(rs.getString(1), rs.getString(2), rs.getString(3),
                        rs.getTimestamp(4).toInstant(), rs.getTimestamp(5).toInstant()))
                .list();
    }
}
