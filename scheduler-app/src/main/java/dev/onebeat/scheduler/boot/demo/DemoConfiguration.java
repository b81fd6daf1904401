package dev.onebeat.scheduler.boot.demo;

import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.job.TaskRequest;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

/**
 * A fan-out job for the demo: every 30 s it dispatches one {@code demo.send_digest} task per row of
 * {@code onebeat_demo_customer}, read on the fire's own connection.
 */
@Configuration(proxyBeanMethods = false)
@Profile("demo")
class DemoConfiguration {

    @Bean
    PeriodicJob demoCustomerDigest() {
        return Jobs.periodic("demo-customer-digest", Schedule.every(Duration.ofSeconds(30)))
                .lockAtMostFor(Duration.ofSeconds(20))
                .execute(context -> {
                    try (PreparedStatement select = context.connection().prepareStatement(
                            "SELECT id, email FROM onebeat_demo_customer ORDER BY id");
                         ResultSet customers = select.executeQuery()) {
                        while (customers.next()) {
                            context.dispatch(TaskRequest.builder("demo.send_digest")
                                    .queue("demo")
                                    .entity("customer", customers.getLong(1))
                                    .kwargs(java.util.Map.of("email", customers.getString(2),
                                            "as_of", context.scheduledAt().toString()))
                                    .build());
                        }
                    }
                });
    }
}
