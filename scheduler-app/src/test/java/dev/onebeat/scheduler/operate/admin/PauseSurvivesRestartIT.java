package dev.onebeat.scheduler.operate.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.scheduler.OnebeatApplication;
import dev.onebeat.scheduler.engine.registry.JobCatalog;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** A job paused through the API stays paused when the cluster restarts, whatever the restart changes. */
@ExtendWith(PostgresExtension.class)
class PauseSurvivesRestartIT {

    @Test
    void pausedJobStaysPausedAfterRestartWithTheSameSchedule(TestDatabase database) throws Exception {
        try (ConfigurableApplicationContext first = start(database, "0 6 * * *")) {
            first.getBean(JobControl.class).pause("nightly");
        }

        try (ConfigurableApplicationContext second = start(database, "0 6 * * *")) {
            assertThat(paused(second)).isTrue();
        }
    }

    @Test
    void pausedJobStaysPausedAfterRestartWithANewSchedule(TestDatabase database) throws Exception {
        try (ConfigurableApplicationContext first = start(database, "0 6 * * *")) {
            first.getBean(JobControl.class).pause("nightly");
        }

        try (ConfigurableApplicationContext second = start(database, "0 7 * * *")) {
            assertThat(paused(second)).isTrue();
            assertThat(second.getBean(JobCatalog.class).find("nightly").orElseThrow().schedule())
                    .isEqualTo("cron 0 0 7 * * ? UTC");
        }
    }

    @Test
    void resumedJobStaysResumedAfterRestart(TestDatabase database) throws Exception {
        try (ConfigurableApplicationContext first = start(database, "0 6 * * *")) {
            first.getBean(JobControl.class).pause("nightly");
            first.getBean(JobControl.class).resume("nightly");
        }

        try (ConfigurableApplicationContext second = start(database, "0 6 * * *")) {
            assertThat(paused(second)).isFalse();
        }
    }

    private static boolean paused(ConfigurableApplicationContext context) {
        return context.getBean(JobCatalog.class).find("nightly").orElseThrow().paused();
    }

    private static ConfigurableApplicationContext start(TestDatabase database, String cron) {
        List<String> args = new ArrayList<>(List.of("--spring.datasource.url=" + database.jdbcUrl(),
                "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(),
                "--spring.main.web-application-type=none", "--onebeat.demo.enabled=false", "--onebeat.retention.enabled=false",
                "--onebeat.jobs[0].name=nightly", "--onebeat.jobs[0].cron=" + cron, "--onebeat.jobs[0].task=t"));
        return new SpringApplicationBuilder(OnebeatApplication.class).run(args.toArray(String[]::new));
    }
}
