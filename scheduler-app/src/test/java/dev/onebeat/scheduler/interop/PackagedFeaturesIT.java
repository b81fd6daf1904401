package dev.onebeat.scheduler.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.onebeat.scheduler.engine.schedule.FireMoments;
import dev.onebeat.testsupport.FreePorts;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.testsupport.jvm.JavaLauncher;
import dev.onebeat.testsupport.jvm.JavaProcess;
import dev.onebeat.transport.testing.RedisTestDatabase;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 27's three features on the packaged application, configured as a user configures it (command-line
 * properties), in a JVM of its own on a database of its own, with a real Celery worker and a stand-in OTLP collector:
 * <ul>
 *   <li>a job with a spread and one with a jitter fire each at its planned moment past the instant, which the
 *       instants API shows;</li>
 *   <li>a job that excludes a calendar of configuration (a weekly window around now, in UTC) has its instants recorded
 *       skipped, naming the calendar, and fires none; the API refuses to change that calendar;</li>
 *   <li>with tracing on, the worker reads a {@code traceparent} whose trace the application exported over OTLP.</li>
 * </ul>
 */
@ExtendWith(PostgresExtension.class)
class PackagedFeaturesIT {

    private static final String ADMIN = "features-admin";
    private static final String PASSWORD = "spread-and-skip";
    private static final String PIPELINE_TOKEN = "packaged-pipeline-token";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration SPREAD = Duration.ofSeconds(3);
    private static final Duration JITTER = Duration.ofSeconds(3);

    private final HttpClient http = HttpClient.newHttpClient();
    private String baseUrl;

    @Test
    void spreadJitterCalendarsAndTracesWorkOnThePackagedApplication(TestDatabase database) throws Exception {
        List<byte[]> exported = new CopyOnWriteArrayList<>();
        HttpServer collector = collector(exported);
        RedisTestDatabase redis = new RedisTestDatabase();
        String queue = redis.newName("packaged-features");
        int port = FreePorts.take();
        baseUrl = "http://127.0.0.1:" + port;
        try (PythonWorker worker = PythonWorker.celery("packaged-features", RedisTestDatabase.URL, queue);
             PackagedApp app = PackagedApp.start("packaged-features", Map.of(), arguments(database, queue, port,
                     collector.getAddress().getPort()))) {
            await("the packaged application up").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                    .failFast("the application exited", () -> !app.isAlive())
                    .until(() -> status("/actuator/health") == 200);

            await("two committed instants of each moved job").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> committed("spread-job").size() >= 2 && committed("jitter-job").size() >= 2);
            for (JsonNode instant : committed("spread-job")) {
                checkPlanned("spread-job", instant, Duration.ZERO, SPREAD);
            }
            for (JsonNode instant : committed("jitter-job")) {
                checkPlanned("jitter-job", instant, JITTER, Duration.ZERO);
            }

            List<JsonNode> excluded = new ArrayList<>();
            json("/api/jobs/excluded-job/instants?limit=5").get("instants").forEach(excluded::add);
            assertThat(excluded).isNotEmpty().allSatisfy(instant -> {
                assertThat(instant.get("outcome").asString()).isEqualTo("skipped");
                assertThat(instant.get("reason").asString()).isEqualTo("excluded by calendar 'now-window'");
            });
            assertThat(json("/api/jobs/excluded-job/fires?outcome=skipped&limit=5")).as("recorded by the fire path")
                    .isNotEmpty().allSatisfy(fire -> assertThat(fire.toString()).contains("now-window"));
            assertThat(json("/api/jobs/excluded-job/fires?outcome=committed&limit=5")).as("never fired").isEmpty();
            JsonNode calendar = json("/api/calendars/now-window");
            assertThat(calendar.get("origin").asString()).isEqualTo("configuration");
            assertThat(calendar.get("usedBy").get(0).asString()).isEqualTo("excluded-job");
            assertThat(send("PUT", "/api/calendars/now-window", "{\"dates\":[\"2027-01-01\"]}").statusCode())
                    .as("configuration's calendar is changed there").isEqualTo(409);

            JsonNode traced = await("a task with its traceparent at the worker").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> worker.records().stream().filter(record -> record.hasNonNull("traceparent"))
                            .findFirst().orElse(null), record -> record != null);
            String traceparent = traced.get("traceparent").asString();
            byte[] traceId = HexFormat.of().parseHex(traceparent.substring(3, 35));
            await("the trace exported over OTLP").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                    .until(() -> exported.stream().anyMatch(body -> contains(body, traceId)));
            System.out.printf("packaged application: the worker read traceparent=%s (task %s); the collector got "
                    + "%d OTLP requests, one holding that trace%n", traceparent,
                    traced.get("idempotency_key").asString(), exported.size());
            assertThat(worker.errorLines()).isEmpty();

            jobFileAppliedByTheJarsCommand();
        } finally {
            collector.stop(0);
            redis.close();
        }
    }

    private List<String> arguments(TestDatabase database, String queue, int port, int collectorPort) {
        // a weekly window from the hour before now to two hours after it, in UTC: the excluded job's instants fall in it
        ZonedDateTime start = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.HOURS)
                .atZone(ZoneOffset.UTC);
        String window = start.getDayOfWeek().name().substring(0, 3) + " " + String.format("%02d:00-%02d:00",
                start.getHour(), (start.getHour() + 3) % 24);
        String hash = new BCryptPasswordEncoder(4).encode(PASSWORD);
        List<String> arguments = new ArrayList<>(List.of(
                "--spring.datasource.url=" + database.jdbcUrl(), "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(), "--server.port=" + port,
                "--onebeat.demo.enabled=false", "--onebeat.retention.enabled=false",
                "--onebeat.jobs-dir=target/interop/no-jobs",
                "--onebeat.security.users[0].name=" + ADMIN, "--onebeat.security.users[0].password={bcrypt}" + hash,
                "--onebeat.security.users[0].role=admin",
                "--onebeat.relay.brokers.redis.type=redis", "--onebeat.relay.brokers.redis.url=" + RedisTestDatabase.URL,
                "--onebeat.relay.queues." + queue + ".transport=celery", "--onebeat.relay.queues." + queue + ".broker=redis",
                "--management.tracing.export.enabled=true",
                "--management.opentelemetry.tracing.export.schedule-delay=200ms",
                "--management.opentelemetry.tracing.export.otlp.endpoint=http://127.0.0.1:" + collectorPort
                        + "/v1/traces",
                "--onebeat.calendars.now-window.weekly[0]=" + window,
                "--onebeat.namespaces.pipeline.queues[0]=pipeline",
                "--onebeat.security.tokens[0].name=pipeline-token",
                "--onebeat.security.tokens[0].token-sha256=" + sha256(PIPELINE_TOKEN),
                "--onebeat.security.tokens[0].namespaces.pipeline=admin"));
        job(arguments, 0, "spread-job", queue, "spread", "3s");
        job(arguments, 1, "jitter-job", queue, "jitter", "3s");
        job(arguments, 2, "excluded-job", queue, "calendars.exclude[0]", "now-window");
        return arguments;
    }

    private static void job(List<String> arguments, int index, String name, String queue, String field, String value) {
        String prefix = "--onebeat.jobs[" + index + "].";
        arguments.addAll(List.of(prefix + "name=" + name, prefix + "every=4s", prefix + "task=" + PythonWorker.CELERY_TASK,
                prefix + "queue=" + queue, prefix + field + "=" + value));
    }

    /**
     * The jar as a pipeline runs it: {@code java -jar scheduler-app.jar apply}, then {@code plan --detect-drift},
     * with a token of the namespace in a file.
     */
    private void jobFileAppliedByTheJarsCommand() throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "interop", "job-file"));
        Path file = Files.writeString(dir.resolve("pipeline-jobs.yaml"), """
                onebeat:
                  jobs:
                    - name: pipeline.nightly
                      cron: "0 2 * * *"
                      task: pipeline.nightly
                      queue: pipeline
                """);
        Path token = Files.writeString(dir.resolve("token"), PIPELINE_TOKEN + "\n");
        List<String> common = List.of("--file", file.toString(), "--namespace", "pipeline", "--url", baseUrl,
                "--token-file", token.toString());
        try (JavaProcess apply = command("apply", common)) {
            assertThat(apply.awaitExit(Duration.ofSeconds(60))).as(apply.logTail(20)).isZero();
            assertThat(apply.lines()).anyMatch(line -> line.contains("+ create      pipeline.nightly"));
        }
        try (JavaProcess plan = command("plan", common)) {
            assertThat(plan.awaitExit(Duration.ofSeconds(60))).as("no drift: " + plan.logTail(20)).isZero();
            assertThat(plan.lines()).anyMatch(line -> line.contains("= unchanged   pipeline.nightly"));
        }
        assertThat(json("/api/jobs/pipeline.nightly").get("namespace").asString()).isEqualTo("pipeline");
        System.out.println("packaged application: java -jar scheduler-app.jar apply, then plan, of a job file: "
                + "pipeline.nightly created in namespace pipeline, then unchanged");
    }

    private static JavaProcess command(String command, List<String> arguments) {
        List<String> all = new ArrayList<>(List.of(command));
        all.addAll(arguments);
        if (command.equals("plan")) {
            all.add("--detect-drift");
        }
        return JavaLauncher.jar("job-file-" + command, PackagedApp.JAR).arguments(all).noInput()
                .dropInheritedVariables(variable -> variable.startsWith("ONEBEAT_"))
                .log(Path.of("target", "interop", "job-file-" + command + ".log")).start();
    }

    private static String sha256(String value) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(value.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private static void checkPlanned(String job, JsonNode expected, Duration jitter, Duration spread) {
        Instant instant = Instant.parse(expected.get("instant").asString());
        Instant planned = Instant.parse(expected.get("plannedAt").asString());
        assertThat(planned).as("%s at %s", job, instant).isEqualTo(instant.plus(FireMoments.offset(job, jitter, spread,
                instant)));
        assertThat(Instant.parse(expected.get("firedAt").asString())).as("%s at %s: not before its moment", job,
                instant).isAfterOrEqualTo(planned.minusMillis(20)).isBefore(planned.plusSeconds(5));
        assertThat(expected.get("outcome").asString()).isEqualTo("on-time");
    }

    private List<JsonNode> committed(String job) throws Exception {
        List<JsonNode> committed = new ArrayList<>();
        json("/api/jobs/" + job + "/instants?limit=10").get("instants").forEach(instant -> {
            if (!instant.get("firedAt").isNull()) {
                committed.add(instant);
            }
        });
        return committed;
    }

    private JsonNode json(String path) throws Exception {
        HttpResponse<String> response = send("GET", path, null);
        assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private int status(String path) {
        try {
            return send("GET", path, null).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private HttpResponse<String> send(String method, String path, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(20))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString((ADMIN + ":" + PASSWORD)
                        .getBytes(StandardCharsets.UTF_8)))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A stand-in OTLP/HTTP collector: keeps each request body and answers 200, as a collector that took it does. */
    private static HttpServer collector(List<byte[]> exported) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/traces", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                exported.add(in.readAllBytes());
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
        return server;
    }

    /** @return whether {@code body} (an OTLP protobuf export) holds the 16 bytes of a trace id */
    private static boolean contains(byte[] body, byte[] traceId) {
        outer:
        for (int i = 0; i + traceId.length <= body.length; i++) {
            for (int j = 0; j < traceId.length; j++) {
                if (body[i + j] != traceId[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
