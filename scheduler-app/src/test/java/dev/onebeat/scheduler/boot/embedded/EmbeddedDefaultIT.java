package dev.onebeat.scheduler.boot.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.testsupport.FreePorts;
import dev.onebeat.testsupport.jvm.JavaLauncher;
import dev.onebeat.testsupport.jvm.JavaProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first command: {@code java -jar scheduler-app.jar} with no configuration starts on the
 * embedded PostgreSQL with the demo jobs, the commands the README and the get-started page show next work as written,
 * and a restart keeps schedules and history. With no user
 * configured, each start logs a new generated admin password once, and the API needs it.
 */
class EmbeddedDefaultIT {

    private static final Pattern GENERATED_PASSWORD =
            Pattern.compile("generated admin password user=admin password=(\\S+)");

    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path workDir;

    @Test
    void jarWithoutConfigurationRunsDemoJobsOnEmbeddedDatabaseAndKeepsThemAcrossRestart() throws Exception {
        int httpPort = FreePorts.take();
        int pgPort = FreePorts.take();
        long started = System.nanoTime();
        String firstPassword;
        JavaProcess first = start(httpPort, pgPort, "first.log");
        try {
            awaitHealthy(httpPort, first, "first.log");
            firstPassword = generatedPassword("first.log");
            assertThat(status(httpPort, "/api/jobs", null)).isEqualTo(401);
            assertThat(status(httpPort, "/api/jobs", "wrong-" + firstPassword)).isEqualTo(401);
            System.out.printf("embedded default: health UP %d ms after java -jar%n",
                    (System.nanoTime() - started) / 1_000_000);
            assertThat(body(httpPort, "/api/jobs", firstPassword)).contains("\"name\":\"demo-heartbeat\"")
                    .contains("\"name\":\"demo-customer-digest\"");
            await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> body(httpPort, "/api/jobs/demo-customer-digest/fires", firstPassword)
                            .contains("\"taskCount\":5"));
            // what the README and the get-started page tell a user to type next, as written there
            for (String page : List.of("../README.md", "../docs/get-started.md")) {
                List<String> commands = DocumentedCommands.bashBlockAfter(Path.of(page), "<http://localhost:8080/ui>");
                DocumentedCommands.runAll(commands, httpPort, pgPort, firstPassword, workDir);
            }
        } finally {
            stop(first);
        }
        assertThat(Files.readString(workDir.resolve("first.log")))
                .contains("embedded PostgreSQL started url=jdbc:postgresql://localhost:" + pgPort + "/postgres");

        JavaProcess second = start(httpPort, pgPort, "second.log");
        try {
            awaitHealthy(httpPort, second, "second.log");
            String secondPassword = generatedPassword("second.log");
            assertThat(secondPassword).isNotEqualTo(firstPassword);
            assertThat(status(httpPort, "/api/jobs", firstPassword)).isEqualTo(401);
            assertThat(body(httpPort, "/api/jobs/demo-customer-digest/fires", secondPassword))
                    .contains("\"taskCount\":5");
        } finally {
            stop(second);
        }
        // both demo jobs and the built-in retention job kept their schedules: nothing stored anew or moved by the restart
        assertThat(Files.readString(workDir.resolve("second.log"))).contains("jobs synced registered=3 storedOrMoved=0");
    }

    private JavaProcess start(int httpPort, int pgPort, String log) {
        Path jar = Path.of("target", "scheduler-app.jar").toAbsolutePath();
        assertThat(jar).exists();
        return JavaLauncher.jar("embedded-default-" + log, jar)
                .jvmOptions("-Xmx384m")
                .arguments("--server.port=" + httpPort, "--onebeat.embedded.port=" + pgPort)
                .directory(workDir)
                .log(workDir.resolve(log))
                .start();
    }

    /**
     * How long a start may take here. Not a speed claim (bench/startup.sh measures that): on a slow 2-core VM, beside
     * the suite's other test JVM, the jar's second start took over 90 s to come up (its context 35 s of that).
     */
    private static final Duration START_UP = Duration.ofSeconds(180);

    /** Waits for the jar's health to be UP; when it is not, fails with whether it still runs and its log's end. */
    private void awaitHealthy(int httpPort, JavaProcess process, String log) throws IOException {
        try {
            await().atMost(START_UP).pollInterval(Duration.ofMillis(250))
                    .until(() -> body(httpPort, "/actuator/health").contains("\"status\":\"UP\""));
        } catch (ConditionTimeoutException e) {
            List<String> lines = Files.readAllLines(workDir.resolve(log));
            throw new AssertionError("health not UP within " + START_UP.toSeconds() + " s; the jar " + (process.isAlive() ? "still runs"
                    : "exited with " + process.exitValue()) + "; the end of " + log + ":\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size())), e);
        }
    }

    private static void stop(JavaProcess process) {
        process.stop(Duration.ofSeconds(30));
    }

    /** The password of the generated admin, logged exactly once by this start. */
    private String generatedPassword(String log) throws IOException {
        Matcher matcher = GENERATED_PASSWORD.matcher(Files.readString(workDir.resolve(log)));
        assertThat(matcher.find()).as("generated password logged").isTrue();
        String password = matcher.group(1);
        assertThat(matcher.find()).as("generated password logged only once").isFalse();
        return password;
    }

    private String body(int port, String path) {
        return send(port, path, null).map(HttpResponse::body).orElse("");
    }

    private String body(int port, String path, String adminPassword) {
        return send(port, path, adminPassword).map(HttpResponse::body).orElse("");
    }

    private int status(int port, String path, String adminPassword) {
        return send(port, path, adminPassword).map(HttpResponse::statusCode).orElse(-1);
    }

    private Optional<HttpResponse<String>> send(int port, String path, String adminPassword) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(10));
        if (adminPassword != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder()
                    .encodeToString(("admin:" + adminPassword).getBytes(StandardCharsets.UTF_8)));
        }
        try {
            return Optional.of(http.send(request.build(), HttpResponse.BodyHandlers.ofString()));
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
