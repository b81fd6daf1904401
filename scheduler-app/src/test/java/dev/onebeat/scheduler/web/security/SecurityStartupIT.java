package dev.onebeat.scheduler.web.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.onebeat.scheduler.OnebeatApplication;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/** How the configured users decide whether, and how openly, a replica on an external database starts. */
@ExtendWith({PostgresExtension.class, OutputCaptureExtension.class})
class SecurityStartupIT {

    private static final String PLAIN_PASSWORD = "hunter2-in-plain-text";

    @Test
    void plainTextPasswordStopsStartupNamingThePropertyButNotThePassword(TestDatabase database,
                                                                         CapturedOutput output) {
        List<String> args = new ArrayList<>(baseArgs(database, "none"));
        args.addAll(List.of("--onebeat.security.users[0].name=alice",
                "--onebeat.security.users[0].password=" + PLAIN_PASSWORD, "--onebeat.security.users[0].role=admin"));

        Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(OnebeatApplication.class)
                .run(args.toArray(String[]::new)).close());

        assertThat(failure).hasRootCauseInstanceOf(SecurityConfigurationException.class)
                .rootCause().hasMessageStartingWith("onebeat.security.users[0].password: must be a bcrypt hash");
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("A user or API token definition is invalid: onebeat.security.users[0].password")
                .doesNotContain(PLAIN_PASSWORD);
    }

    @Test
    void withoutUsersReplicaStartsWarnsAndAnswersUnauthorizedExceptHealth(TestDatabase database,
                                                                           CapturedOutput output) throws Exception {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(OnebeatApplication.class)
                .run(baseArgs(database, "servlet").toArray(String[]::new))) {
            int port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);

            assertThat(status(port, "/api/jobs")).isEqualTo(401);
            assertThat(status(port, "/actuator/prometheus")).isEqualTo(401);
            assertThat(status(port, "/actuator/health")).isEqualTo(200);
        }
        assertThat(output).contains("WARN").contains("no users configured: every endpoint but /actuator/health");
    }

    private static int status(int port, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static List<String> baseArgs(TestDatabase database, String webApplicationType) {
        return List.of("--spring.datasource.url=" + database.jdbcUrl(),
                "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(),
                "--spring.main.web-application-type=" + webApplicationType, "--server.port=0",
                "--spring.quartz.auto-startup=false", "--onebeat.demo.enabled=false", "--onebeat.retention.enabled=false");
    }
}
