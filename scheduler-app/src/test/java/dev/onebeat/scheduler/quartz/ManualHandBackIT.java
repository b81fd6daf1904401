package dev.onebeat.scheduler.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.OnebeatApplication;
import dev.onebeat.scheduler.admin.ManualTriggers;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.quartz.Scheduler;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A "trigger now" whose one-shot trigger reaches a replica that does not register the job is handed
 * back and fired by one that does, still as a manual fire for the instant it was requested for.
 */
@ExtendWith(PostgresExtension.class)
class ManualHandBackIT {

    @Test
    void manualFireHandedBackKeepsItsRequestedInstant(TestDatabase database) throws Exception {
        JdbcClient jdbc = JdbcClient.create(database.dataSource());
        try (ConfigurableApplicationContext oldReplica = start(database, "old", true)) {
            // started second, so Quartz's per-JVM connection provider is this context's, as the trigger call needs
            try (ConfigurableApplicationContext newReplica = start(database, "new", false,
                    "--onebeat.jobs[0].name=yearly", "--onebeat.jobs[0].cron=0 6 1 1 *", "--onebeat.jobs[0].task=t")) {
                Instant requested = newReplica.getBean(ManualTriggers.class).trigger("yearly", "hand-me-back").scheduledAt();
                await().atMost(Duration.ofSeconds(60)).until(() -> handBacks(jdbc) >= 1);
                // the old replica, signalled by its own hand-backs, would otherwise win every one of them
                oldReplica.close();

                newReplica.getBean(Scheduler.class).start();
                await().atMost(Duration.ofSeconds(30)).until(() -> fires(jdbc).size() == 1);

                assertThat(fires(jdbc)).containsExactly(new Fire(requested, "manual", "new"));
            }
        }
    }

    record Fire(Instant scheduledAt, String trigger, String node) {
    }

    private static List<Fire> fires(JdbcClient jdbc) {
        return jdbc.sql("SELECT scheduled_at, trigger_kind, node FROM onebeat_fire WHERE job_name = 'yearly'")
                .query((rs, row) -> new Fire(rs.getTimestamp(1).toInstant(), rs.getString(2), rs.getString(3)))
                .list();
    }

    private static long handBacks(JdbcClient jdbc) {
        return jdbc.sql("SELECT count(*) FROM qrtz_triggers WHERE trigger_group = ?").param(HandBack.GROUP)
                .query(Long.class).single();
    }

    private static ConfigurableApplicationContext start(TestDatabase database, String id, boolean autoStartup,
                                                        String... jobs) {
        List<String> args = new ArrayList<>(List.of("--spring.datasource.url=" + database.jdbcUrl(),
                "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(),
                "--spring.main.web-application-type=none", "--onebeat.demo.enabled=false",
                "--spring.quartz.auto-startup=" + autoStartup,
                "--spring.quartz.properties.org.quartz.scheduler.instanceId=" + id));
        args.addAll(List.of(jobs));
        return new SpringApplicationBuilder(OnebeatApplication.class).run(args.toArray(String[]::new));
    }
}
