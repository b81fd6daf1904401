package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.onebeat.scheduler.OnebeatApplication;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** Bad routing stops the application before anything connects, with a report naming each property. */
@ExtendWith({PostgresExtension.class, OutputCaptureExtension.class})
class RelayStartupValidationIT {

    @Test
    void unknownTransportStopsStartupWithAReportNamingTheProperty(TestDatabase database, CapturedOutput output) {
        Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(OnebeatApplication.class).run(
                "--spring.datasource.url=" + database.jdbcUrl(),
                "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(),
                "--spring.main.web-application-type=none", "--spring.quartz.auto-startup=false",
                "--onebeat.demo.enabled=false", "--onebeat.retention.enabled=false",
                "--onebeat.relay.brokers.rabbit.type=rabbitmq",
                "--onebeat.relay.brokers.rabbit.url=amqp://guest:guest@localhost:5672/",
                "--onebeat.relay.queues.billing.transport=celeri",
                "--onebeat.relay.queues.billing.broker=rabbit").close());

        assertThat(rootCause(failure)).isInstanceOf(RelayConfigurationException.class);
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("The relay configuration is invalid:\n  - onebeat.relay.queues.billing.transport: "
                        + "unknown transport 'celeri'; known transports: [amqp, arq, celery, database, dramatiq, http, kafka, onebeat-alert, rq]")
                .contains("Fix the onebeat.relay.* properties named above, then restart.");
    }

    private static Throwable rootCause(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
