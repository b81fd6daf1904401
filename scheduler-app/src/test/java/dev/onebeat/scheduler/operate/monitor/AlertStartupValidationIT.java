package dev.onebeat.scheduler.operate.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.onebeat.scheduler.OnebeatApplication;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.builder.SpringApplicationBuilder;

/** Bad alert, monitor and retention settings stop start-up with a message naming the property and its value. */
@ExtendWith(PostgresExtension.class)
class AlertStartupValidationIT {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            webhook not http    | onebeat.alerts.webhook.url=ftp://hooks.example.com | onebeat.alerts.webhook.url: 'ftp://hooks.example.com' is not an absolute http:// or https:// URL
            reserved header     | onebeat.alerts.webhook.headers.Idempotency-Key=x   | onebeat.alerts.webhook.headers.Idempotency-Key: onebeat sets Idempotency-Key itself
            DSN without key     | onebeat.alerts.sentry.dsn=https://o1.ingest.sentry.io/42 | onebeat.alerts.sentry.dsn: 'https://o1.ingest.sentry.io/42' is not a DSN of the form https://<public key>@<host>/<project id>
            console not a URL   | onebeat.alerts.console-url=onebeat.example.com    | onebeat.alerts.console-url: 'onebeat.example.com' is not an absolute http:// or https:// URL
            retention cron      | onebeat.retention.cron=*/10 * * *                 | onebeat.retention.cron: '*/10 * * *':
            retention age       | onebeat.retention.fires=0d                        | onebeat.retention.fires: must be positive, was PT0S
            """)
    void aBadSettingStopsStartupNamingIt(String caseName, String setting, String expected, TestDatabase database) {
        List<String> args = new ArrayList<>(List.of("--spring.datasource.url=" + database.jdbcUrl(),
                "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(),
                "--spring.main.web-application-type=none", "--spring.quartz.auto-startup=false",
                "--onebeat.demo.enabled=false", "--" + setting));

        Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(OnebeatApplication.class)
                .run(args.toArray(String[]::new)).close());

        assertThat(failure).isNotNull();
        assertThat(messages(failure)).anySatisfy(message -> assertThat(message).startsWith(expected));
    }

    private static List<String> messages(Throwable failure) {
        List<String> messages = new ArrayList<>();
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            messages.add(String.valueOf(cause.getMessage()));
        }
        return messages;
    }
}
