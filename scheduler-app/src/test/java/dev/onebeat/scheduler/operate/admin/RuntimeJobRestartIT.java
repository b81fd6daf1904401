package dev.onebeat.scheduler.operate.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.OnebeatApplication;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.JobsProperties.Definition;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Jobs stored through the API outlive the replica that stored them and reach the replicas already
 * running: two contexts on one database, one after the other and side by side.
 */
@ExtendWith(PostgresExtension.class)
class RuntimeJobRestartIT {

    private static final Definition NIGHTLY_EXPORT = Definition.builder("nightly-export")
            .cron("0 2 * * *").zone("Europe/Paris").task("exports.nightly").queue("exports").args(List.of(1)).build();
    private static final Definition CONFIGURED_AT_NINE = Definition.builder(null).cron("0 9 * * *").build();

    @Test
    void runtimeJobAndNewScheduleSurviveARestart(TestDatabase database) {
        try (ConfigurableApplicationContext first = start(database, "first")) {
            first.getBean(RuntimeJobs.class).create(NIGHTLY_EXPORT);
            first.getBean(RuntimeJobs.class).update("configured", CONFIGURED_AT_NINE);
        }

        try (ConfigurableApplicationContext second = start(database, "second")) {
            JobRegistry registry = second.getBean(JobRegistry.class);
            assertThat(registry.find("nightly-export")).map(job -> job.job().schedule().describe())
                    .hasValue("cron 0 0 2 * * ? Europe/Paris");
            assertThat(registry.find("configured")).map(job -> job.job().schedule().describe())
                    .hasValue("cron 0 0 9 * * ? UTC");
        }
    }

    @Test
    void runtimeJobCreatedOnOneReplicaReachesAnotherAndLeavesItWhenDeleted(TestDatabase database) {
        // Quartz keeps one connection provider per scheduler name per JVM: two contexts side by side need two names
        try (ConfigurableApplicationContext one = start(database, "one", "--spring.quartz.scheduler-name=one");
             ConfigurableApplicationContext other = start(database, "other", "--spring.quartz.scheduler-name=other")) {
            JobRegistry otherRegistry = other.getBean(JobRegistry.class);
            one.getBean(RuntimeJobs.class).create(Definition.builder("shared-export").every("1h").task("t").build());

            await().atMost(Duration.ofSeconds(10)).until(() -> otherRegistry.find("shared-export").isPresent());
            // written by hand, not through the API: the table's statement trigger moves the version the poll reads
            JdbcClient.create(database.dataSource()).sql("""
                    UPDATE onebeat_runtime_job SET definition = jsonb_set(definition, '{every}', '"2h"')
                    WHERE name = 'shared-export'""").update();
            await().atMost(Duration.ofSeconds(10)).until(() -> otherRegistry.find("shared-export")
                    .map(job -> job.job().schedule().describe()).orElse("").equals("every 7200s"));
            one.getBean(RuntimeJobs.class).delete("shared-export");
            await().atMost(Duration.ofSeconds(10)).until(() -> otherRegistry.find("shared-export").isEmpty());
        }
    }

    private static ConfigurableApplicationContext start(TestDatabase database, String id, String... more) {
        List<String> args = new ArrayList<>(List.of("--spring.datasource.url=" + database.jdbcUrl(),
                "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(),
                "--spring.main.web-application-type=none", "--onebeat.demo.enabled=false", "--onebeat.retention.enabled=false",
                "--spring.quartz.properties.org.quartz.scheduler.instanceId=" + id,
                "--onebeat.runtime-jobs-poll=200ms",
                "--onebeat.jobs[0].name=configured", "--onebeat.jobs[0].cron=0 6 * * *", "--onebeat.jobs[0].task=t"));
        args.addAll(List.of(more));
        return new SpringApplicationBuilder(OnebeatApplication.class).run(args.toArray(String[]::new));
    }
}
