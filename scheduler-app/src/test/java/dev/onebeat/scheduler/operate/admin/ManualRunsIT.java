package dev.onebeat.scheduler.operate.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.engine.registry.JobCatalog;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quartz.Scheduler;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * "Trigger now" requests have a key space of their own: two accepted in the same millisecond, on the
 * very instant the schedule fires too, all fire, each with its own ledger row and task keys.
 */
@SchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO,
        "onebeat.jobs[0].name=grid", "onebeat.jobs[0].every=1s", "onebeat.jobs[0].task=grid.tick",
        "onebeat.jobs[0].queue=grid"})
class ManualRunsIT {


    @Autowired
    JdbcClient jdbc;
    @Autowired
    JobCatalog catalog;
    @Autowired
    Scheduler scheduler;
    @Autowired
    JobRegistry registry;
    @Autowired
    AuditLog audit;
    @Autowired
    TransactionTemplate transactions;

    @Test
    void twoRequestsInOneMillisecondOnAGridInstantAllFireAndNoneTakesTheScheduledSlot() {
        Instant grid = Instant.now().plusSeconds(3).truncatedTo(ChronoUnit.SECONDS);
        // every request this instance accepts is stamped with the grid instant itself, to the millisecond
        ManualTriggers sameMillisecond = new ManualTriggers(jdbc, catalog, scheduler, registry, audit, transactions,
                Clock.fixed(grid, ZoneOffset.UTC));

        assertThat(sameMillisecond.trigger("grid", "request-a").scheduledAt()).isEqualTo(grid);
        assertThat(sameMillisecond.trigger("grid", "request-b").scheduledAt()).isEqualTo(grid);
        assertThat(sameMillisecond.trigger("grid", "request-a").scheduledAt()).as("a repeat").isEqualTo(grid);

        await().atMost(Duration.ofSeconds(30)).until(() -> ledger(grid).size() == 3);
        assertThat(ledger(grid)).containsExactly(" scheduled", "request-a manual", "request-b manual");
        assertThat(jdbc.sql("SELECT idempotency_key FROM onebeat_task WHERE job_name = 'grid' AND scheduled_at = ?"
                        + " ORDER BY idempotency_key").param(Timestamp.from(grid)).query(String.class).list())
                .containsExactly("grid/" + grid + "/grid.tick", "grid/" + grid + "~request-a/grid.tick",
                        "grid/" + grid + "~request-b/grid.tick");
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_fire_attempt WHERE job_name = 'grid' AND outcome = 'duplicate'")
                .query(Long.class).single()).as("nothing suppressed").isZero();
    }

    private List<String> ledger(Instant at) {
        return jdbc.sql("SELECT run_id || ' ' || trigger_kind FROM onebeat_fire WHERE job_name = 'grid' AND scheduled_at = ?"
                        + " ORDER BY run_id")
                .param(Timestamp.from(at)).query(String.class).list();
    }
}
