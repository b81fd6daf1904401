package dev.onebeat.scheduler.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first command: {@code java -jar scheduler-app.jar} with no configuration starts on the
 * embedded PostgreSQL with the demo jobs, and a restart keeps schedules and history.
 */
class EmbeddedDefaultIT {

    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path workDir;

    @Test
    void jarWithoutConfigurationRunsDemoJobsOnEmbeddedDatabaseAndKeepsThemAcrossRestart() throws Exception {
        int httpPort = freePort();
        int pgPort = freePort();
        long started = System.nanoTime();
        Process first = start(httpPort, pgPort, "first.log");
        try {
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .until(() -> body(httpPort, "/actuator/health").contains("\"status\":\"UP\""));
            System.out.printf("embedded default: health UP %d ms after java -jar%n",
                    (System.nanoTime() - started) / 1_000_000);
            assertThat(body(httpPort, "/api/jobs")).contains("\"name\":\"demo-heartbeat\"")
                    .contains("\"name\":\"demo-customer-digest\"");
            await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> body(httpPort, "/api/jobs/demo-customer-digest/fires").contains("\"taskCount\":5"));
        } finally {
            stop(first);
        }
        assertThat(Files.readString(workDir.resolve("first.log")))
                .contains("embedded PostgreSQL started url=jdbc:postgresql://localhost:" + pgPort + "/postgres");

        Process second = start(httpPort, pgPort, "second.log");
        try {
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .until(() -> body(httpPort, "/actuator/health").contains("\"status\":\"UP\""));
            assertThat(body(httpPort, "/api/jobs/demo-customer-digest/fires")).contains("\"taskCount\":5");
        } finally {
            stop(second);
        }
        assertThat(Files.readString(workDir.resolve("second.log"))).contains("schedule unchanged job=demo-heartbeat");
    }

    private Process start(int httpPort, int pgPort, String log) throws IOException {
        Path jar = Path.of("target", "scheduler-app.jar").toAbsolutePath();
        assertThat(jar).exists();
        return new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-jar", jar.toString(), "--server.port=" + httpPort, "--onebeat.embedded.port=" + pgPort))
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(workDir.resolve(log).toFile())
                .start();
    }

    private static void stop(Process process) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private String body(int port, String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
