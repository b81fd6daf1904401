package dev.onebeat.scheduler.engine.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.engine.cluster.LiveNodes;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The statements over a whole catalog go a bounded batch at a time (a million jobs in one statement ran past the
 * driver's socket timeout): a replica's registrations, written as a difference in chunks of 10,000 names, and the
 * orphan judgement, a batch of names at a time. Each must come out as if written or judged in one piece.
 */
@SchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED})
class LargeCatalogIT {

    @Autowired
    JobCatalog catalog;
    @Autowired
    LiveNodes nodes;
    @Autowired
    TransactionTemplate transactions;
    @Autowired
    JdbcClient jdbc;

    @Test
    void registrationsOfManyJobsAreWrittenAsTheirDifference() {
        List<String> first = names(0, 25_000);
        register(first);
        assertThat(registered()).containsExactlyElementsOf(first);

        // 12,000 go, 3,000 come: chunks on both sides
        List<String> second = names(12_000, 28_000);
        register(second);
        assertThat(registered()).containsExactlyElementsOf(second);

        long version = rowVersions();
        register(second);
        assertThat(registered()).containsExactlyElementsOf(second);
        assertThat(rowVersions()).as("the same jobs again write no row").isEqualTo(version);

        register(List.of());
        assertThat(registered()).isEmpty();
    }

    @Test
    void theOrphanJudgementGoesThroughEveryBatch() {
        List<String> jobs = IntStream.range(0, 7).mapToObj(i -> "batch-judged-" + i).toList();
        jobs.forEach(name -> jdbc.sql("""
                        INSERT INTO onebeat_job (name, schedule_key, schedule, member_since)
                        VALUES (?, 'k', 'every 1h', now())""").param(name).update());

        List<JobCatalog.OrphanChange> orphaned = transactions.execute(status -> catalog.judgeOrphans(nodes.self(), 2));
        assertThat(orphaned).extracting(JobCatalog.OrphanChange::name).containsExactlyInAnyOrderElementsOf(jobs);
        assertThat(orphaned).allMatch(JobCatalog.OrphanChange::orphaned);

        register(List.of(jobs.get(0), jobs.get(3), jobs.get(6)));
        List<JobCatalog.OrphanChange> back = transactions.execute(status -> catalog.judgeOrphans(nodes.self(), 2));
        assertThat(back).extracting(JobCatalog.OrphanChange::name)
                .containsExactlyInAnyOrder(jobs.get(0), jobs.get(3), jobs.get(6));
        assertThat(back).noneMatch(JobCatalog.OrphanChange::orphaned);
        assertThat(jdbc.sql("SELECT name FROM onebeat_job WHERE orphaned ORDER BY name").query(String.class).list())
                .containsExactly(jobs.get(1), jobs.get(2), jobs.get(4), jobs.get(5));
        List<JobCatalog.OrphanChange> again = transactions.execute(status -> catalog.judgeOrphans(nodes.self(), 2));
        assertThat(again).as("judged again").isEmpty();
    }

    @Test
    void runtimeJobsAreNeverOrphanedOnEitherSideOfABatchsBounds() {
        // batches of 2 over 7 jobs (and the other test's, before them): runtime jobs on a batch's bound and past one
        List<String> jobs = IntStream.range(0, 7).mapToObj(i -> "batch-runtime-" + i).toList();
        List<String> runtime = List.of(jobs.get(1), jobs.get(2), jobs.get(5), jobs.get(6));
        jobs.forEach(name -> jdbc.sql("""
                        INSERT INTO onebeat_job (name, schedule_key, schedule, member_since)
                        VALUES (?, 'k', 'every 1h', now())""").param(name).update());
        runtime.forEach(name -> jdbc.sql("""
                        INSERT INTO onebeat_runtime_job (name, kind, definition, updated_by)
                        VALUES (?, 'job', '{}'::jsonb, 'test')""").param(name).update());
        try {
            List<JobCatalog.OrphanChange> orphaned = transactions.execute(status -> catalog.judgeOrphans(nodes.self(), 2));

            // the class's other tests leave jobs of their own, which this judgement may change too
            assertThat(orphaned).extracting(JobCatalog.OrphanChange::name).filteredOn(jobs::contains)
                    .containsExactlyInAnyOrder(jobs.get(0), jobs.get(3), jobs.get(4));
        } finally {
            jdbc.sql("DELETE FROM onebeat_runtime_job WHERE name = ANY(?::varchar[])")
                    .param(runtime.toArray(String[]::new)).update();
            jdbc.sql("DELETE FROM onebeat_job WHERE name = ANY(?::varchar[])").param(jobs.toArray(String[]::new))
                    .update();
        }
    }

    private void register(List<String> names) {
        transactions.executeWithoutResult(status -> nodes.registers(names));
    }

    private List<String> registered() {
        return jdbc.sql("SELECT job_name FROM onebeat_node_job WHERE instance_id = ? ORDER BY job_name COLLATE \"C\"")
                .param(nodes.self()).query(String.class).list();
    }

    /** @return a sum that changes when any registration row is written again */
    private long rowVersions() {
        return jdbc.sql("SELECT coalesce(sum(xmin::text::bigint), 0) FROM onebeat_node_job WHERE instance_id = ?")
                .param(nodes.self()).query(Long.class).single();
    }

    private static List<String> names(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> String.format(Locale.ROOT, "registered-%06d", i)).toList();
    }
}
