package dev.onebeat.scheduler.engine.quartz;

import dev.onebeat.scheduler.OnebeatApplication;
import dev.onebeat.testsupport.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/** Replicas of a rolling deploy on one database, for the hand-back tests, and what they leave in Quartz. */
final class HandBackReplicas {

    private HandBackReplicas() {
    }

    /**
     * @param id the Quartz instance id, which the ledger records as the node
     * @param autoStartup whether Quartz starts at once; a replica started later can be prepared first
     * @param properties more {@code --name=value} arguments, such as the jobs it defines
     */
    static ConfigurableApplicationContext start(TestDatabase database, String id, boolean autoStartup,
                                                String... properties) {
        List<String> args = new ArrayList<>(List.of("--spring.datasource.url=" + database.jdbcUrl(),
                "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(),
                "--spring.main.web-application-type=none", "--onebeat.demo.enabled=false",
                "--spring.quartz.auto-startup=" + autoStartup,
                "--spring.quartz.properties.org.quartz.scheduler.instanceId=" + id,
                // an idle replica looks for triggers another replica made every second (the default too)
                "--spring.quartz.properties.org.quartz.scheduler.idleWaitTime=1000"));
        args.addAll(List.of(properties));
        return new SpringApplicationBuilder(OnebeatApplication.class).run(args.toArray(String[]::new));
    }

    /** @return the fires handed back to the cluster and not yet taken */
    static long handBacks(JdbcClient jdbc) {
        return jdbc.sql("SELECT count(*) FROM qrtz_triggers WHERE trigger_group = ?").param(HandBack.GROUP)
                .query(Long.class).single();
    }
}
