package dev.onebeat.scheduler.operate.backfill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.OnebeatApplication;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A backfill outlives the replica working on it: the replica stops after a few instants, the next one to
 * start goes on from the backfill's cursor, and every instant of the range fires once.
 */
@ExtendWith(PostgresExtension.class)
class BackfillRestartIT {

    private static final int INSTANTS = 30;

    @Test
    void aReplicaStartedAfterTheOneThatStoppedFinishesTheBackfillFiringEachInstantOnce(TestDatabase database) {
        Instant to = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5));
        Instant from = to.minus(Duration.ofMinutes(INSTANTS));
        JdbcClient jdbc = JdbcClient.create(database.dataSource());
        long id;
        try (ConfigurableApplicationContext first = start(database, "first")) {
            id = first.getBean(Backfills.class).start("every-minute", from, to, false).backfill().id();
            await().atMost(Duration.ofSeconds(30)).until(() -> fired(jdbc) >= 3);
        }
        long firedBeforeRestart = fired(jdbc);
        assertThat(firedBeforeRestart).as("stopped mid-way").isLessThan(INSTANTS);

        try (ConfigurableApplicationContext second = start(database, "second")) {
            Backfills backfills = second.getBean(Backfills.class);
            await().atMost(Duration.ofSeconds(60)).until(() -> backfills.find("every-minute", id).state().equals("done"));
            Backfill done = backfills.find("every-minute", id);
            assertThat(done.done()).isEqualTo(INSTANTS);
            assertThat(done.total()).isEqualTo(INSTANTS);
            assertThat(done.fired()).isEqualTo(INSTANTS);
        }
        assertThat(jdbc.sql("""
                        SELECT count(DISTINCT scheduled_at) FROM onebeat_fire
                        WHERE job_name = 'every-minute' AND trigger_kind = 'backfill' AND scheduled_at >= ? AND scheduled_at < ?""")
                .params(Timestamp.from(from), Timestamp.from(to)).query(Long.class).single()).isEqualTo(INSTANTS);
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_task WHERE job_name = 'every-minute' AND scheduled_at < ?")
                .param(Timestamp.from(to)).query(Long.class).single()).as("one task per instant").isEqualTo(INSTANTS);
    }

    private static long fired(JdbcClient jdbc) {
        return jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE job_name = 'every-minute' AND trigger_kind = 'backfill'")
                .query(Long.class).single();
    }

    private static ConfigurableApplicationContext start(TestDatabase database, String id) {
        return new SpringApplicationBuilder(OnebeatApplication.class).run(
                "--spring.datasource.url=" + database.jdbcUrl(),
                "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(),
                "--spring.main.web-application-type=none", "--onebeat.demo.enabled=false", "--onebeat.retention.enabled=false",
                "--spring.quartz.properties.org.quartz.scheduler.instanceId=" + id,
                "--onebeat.backfill.spacing=400ms", "--onebeat.backfill.poll=300ms",
                "--onebeat.jobs[0].name=every-minute", "--onebeat.jobs[0].every=1m", "--onebeat.jobs[0].task=sync.run");
    }
}
