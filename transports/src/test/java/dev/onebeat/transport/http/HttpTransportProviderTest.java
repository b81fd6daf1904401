package dev.onebeat.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.testsupport.FreePorts;
import dev.onebeat.transport.BrokerSettings;
import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.Delivery;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.Transport;
import dev.onebeat.transport.testing.StallingServer;
import dev.onebeat.transport.testing.TestTransportContext;
import dev.onebeat.transport.testing.WebhookServer;
import dev.onebeat.transport.TaskPayload;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code http} transport against a real local HTTP server, one batch at a time. */
class HttpTransportProviderTest {

    private static final Instant SCHEDULED_AT = Instant.parse("2026-11-29T08:00:00Z");

    private final HttpTransportProvider provider = new HttpTransportProvider();

    @Nested
    class Publishing {

        private final WebhookServer server = newServer();
        private final TestTransportContext context = new TestTransportContext();

        @AfterEach
        void stop() throws Exception {
            context.close();
            server.close();
        }

        @Test
        void eachTaskIsPostedAsJsonWithItsKeyJobAndExtraHeadersToTheJoinedPath() throws Exception {
            OutboundTask task = task("close-books", "billing.close", "{\"args\": [1], \"kwargs\": {\"region\": \"eu\"}}");

            List<Delivery> outcomes = publish(server.baseUrl() + "/hooks/", Map.of("header.Authorization", "Bearer s3cret"),
                    Map.of("path", "/onebeat"), List.of(task));

            assertThat(outcomes).containsExactly(Delivery.published());
            WebhookServer.Request request = server.requests("/hooks/onebeat").get(0);
            assertThat(request.header("Content-Type")).isEqualTo("application/json");
            assertThat(request.header("Idempotency-Key")).isEqualTo("close-books/2026-11-29T08:00:00Z/billing.close");
            assertThat(request.header("Onebeat-Job")).isEqualTo("close-books");
            assertThat(request.header("Onebeat-Scheduled-At")).isEqualTo("2026-11-29T08:00:00Z");
            assertThat(request.header("Onebeat-Task")).isEqualTo("billing.close");
            assertThat(request.header("Authorization")).isEqualTo("Bearer s3cret");
            assertThat(request.body()).isEqualTo("{\"task\":\"billing.close\",\"args\":[1],\"kwargs\":{\"region\":\"eu\"},"
                    + "\"job\":\"close-books\",\"scheduled_at\":\"2026-11-29T08:00:00Z\","
                    + "\"idempotency_key\":\"close-books/2026-11-29T08:00:00Z/billing.close\",\"entity\":null}");
        }

        @ParameterizedTest(name = "HTTP {0} → {1}")
        @CsvSource({"200, PUBLISHED", "201, PUBLISHED", "204, PUBLISHED", "408, RETRY", "429, RETRY", "500, RETRY",
                "503, RETRY", "400, REFUSED", "404, REFUSED", "409, REFUSED", "422, REFUSED", "301, REFUSED"})
        void statusDecidesTheOutcome(int status, Delivery.Status expected) throws Exception {
            server.on("/status", (request, attempt) -> WebhookServer.Answer.of(status));

            List<Delivery> outcomes = publish(server.baseUrl(), Map.of(), Map.of("path", "status"),
                    List.of(task("job", "t", "{}")));

            assertThat(outcomes).singleElement().extracting(Delivery::status).isEqualTo(expected);
        }

        @Test
        void refusalKeepsTheStatusAloneNotWhatTheServerAnswered() throws Exception {
            String body = "INTERNAL-SECRET: db_password=hunter2 " + "x".repeat(1_000);
            server.on("/reject", (request, attempt) -> new WebhookServer.Answer(422, body, Duration.ZERO));

            List<Delivery> outcomes = publish(server.baseUrl(), Map.of(), Map.of("path", "reject"),
                    List.of(task("job", "t", "{}")));

            assertThat(outcomes).containsExactly(Delivery.refused("HTTP 422"));
        }

        @Test
        void answerThatStallsMidBodyIsRetriedAtTheRouteTimeoutAndItsConnectionClosed() throws Exception {
            try (StallingServer stalling = new StallingServer()) {
                long started = System.nanoTime();

                List<Delivery> outcomes = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> publish(
                        stalling.baseUrl(), Map.of(), Map.of("timeout", "500ms"), List.of(task("job", "t", "{}"))),
                        "the publish waits for the rest of the body");

                assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));
                assertThat(outcomes).singleElement().satisfies(outcome -> {
                    assertThat(outcome.status()).isEqualTo(Delivery.Status.RETRY);
                    assertThat(outcome.error()).isEqualTo(
                            "HttpTimeoutException: no complete response within 500 ms (status, headers and body)");
                });
                assertThat(stalling.keys()).hasSize(1);
                await().atMost(Duration.ofSeconds(5)).until(() -> stalling.closedByClient() == 1);
            }
        }

        @Test
        void deadlineOfABatchIsOneTimeoutPerEightTasks() throws Exception {
            QueueRoute route = route(server.baseUrl(), Map.of(), Map.of("timeout", "2s"));
            try (Transport transport = provider.create(route, context)) {
                assertThat(transport.deadline(1)).contains(Duration.ofSeconds(2));
                assertThat(transport.deadline(8)).contains(Duration.ofSeconds(2));
                assertThat(transport.deadline(9)).contains(Duration.ofSeconds(4));
                assertThat(transport.deadline(500)).contains(Duration.ofSeconds(126));
            }
        }

        @Test
        void responseSlowerThanTheTimeoutIsRetried() throws Exception {
            server.on("/slow", (request, attempt) -> new WebhookServer.Answer(200, "", Duration.ofSeconds(3)));

            List<Delivery> outcomes = publish(server.baseUrl(), Map.of(), Map.of("path", "slow", "timeout", "200ms"),
                    List.of(task("job", "t", "{}")));

            assertThat(outcomes).singleElement().satisfies(outcome -> {
                assertThat(outcome.status()).isEqualTo(Delivery.Status.RETRY);
                assertThat(outcome.error()).startsWith("HttpTimeoutException");
            });
        }

        @Test
        void afterATimeoutTheRestOfTheBatchIsRetriedWithoutBeingSent() throws Exception {
            server.on("/hung", (request, attempt) -> new WebhookServer.Answer(200, "", Duration.ofSeconds(3)));
            List<OutboundTask> tasks = IntStream.range(0, 30).mapToObj(i -> task("job", "t" + i, "{}")).toList();

            List<Delivery> outcomes = publish(server.baseUrl(), Map.of(), Map.of("path", "hung", "timeout", "300ms"), tasks);

            assertThat(outcomes).hasSize(30).allMatch(outcome -> outcome.status() == Delivery.Status.RETRY);
            assertThat(outcomes.get(29).error()).startsWith("not sent, an earlier request failed: HttpTimeoutException");
            assertThat(server.requests("/hung")).hasSizeLessThanOrEqualTo(WebhookClient.MAX_IN_FLIGHT);
        }

        @Test
        void batchIsSentConcurrentlyAtMostEightAtATime() throws Exception {
            server.on("/batch", (request, attempt) -> new WebhookServer.Answer(200, "", Duration.ofMillis(100)));
            List<OutboundTask> tasks = IntStream.range(0, 40).mapToObj(i -> task("job", "t" + i, "{}")).toList();

            List<Delivery> outcomes = publish(server.baseUrl(), Map.of(), Map.of("path", "batch"), tasks);

            assertThat(outcomes).hasSize(40).containsOnly(Delivery.published());
            assertThat(server.requests("/batch")).hasSize(40);
            assertThat(server.maxInFlight()).isBetween(2, WebhookClient.MAX_IN_FLIGHT);
        }

        private List<Delivery> publish(String url, Map<String, String> properties, Map<String, String> options,
                                       List<OutboundTask> tasks) throws Exception {
            QueueRoute route = route(url, properties, options);
            provider.validate(route);
            try (Transport transport = provider.create(route, context)) {
                return transport.publish(tasks);
            }
        }
    }

    @Test
    void unreachableServerIsRetried() throws Exception {
        int closedPort = FreePorts.take();
        QueueRoute route = route("http://127.0.0.1:" + closedPort, Map.of(), Map.of());

        try (TestTransportContext context = new TestTransportContext();
             Transport transport = provider.create(route, context)) {
            assertThat(transport.publish(List.of(task("job", "t", "{}")))).singleElement().satisfies(outcome -> {
                assertThat(outcome.status()).isEqualTo(Delivery.Status.RETRY);
                assertThat(outcome.error()).startsWith("ConnectException");
            });
        }
    }

    @Nested
    class Validation {

        @Test
        void propertyOtherThanAHeaderIsRefusedNamingIt() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> provider.validate(route("http://hooks:8080", Map.of("timeout", "5s"), Map.of())))
                    .withMessage("onebeat.relay.brokers.hooks.properties.timeout: unknown property; "
                            + "an http broker takes header.<Name> = extra request header");
        }

        @Test
        void headerTheTransportSetsItselfIsRefused() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> provider.validate(route("http://hooks:8080",
                            Map.of("header.idempotency-key", "fixed"), Map.of())))
                    .withMessage("onebeat.relay.brokers.hooks.properties.header.idempotency-key: "
                            + "the transport sets idempotency-key itself");
        }

        @Test
        void headerJavasClientRestrictsIsRefused() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> provider.validate(route("http://hooks:8080", Map.of("header.Host", "other"), Map.of())))
                    .withMessageStartingWith("onebeat.relay.brokers.hooks.properties.header.Host: not a header that can be sent");
        }

        @Test
        void timeoutThatIsNoDurationIsRefused() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> provider.validate(route("http://hooks:8080", Map.of(), Map.of("timeout", "soon"))))
                    .withMessage("options.timeout: not a duration: 'soon'");
        }

        @Test
        void urlThatIsNotHttpIsRefusedNamingIt() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> provider.validate(route("ftp://hooks/in", Map.of(), Map.of())))
                    .withMessage("onebeat.relay.brokers.hooks.url: 'ftp://hooks/in' is not an absolute http:// or "
                            + "https:// URL with a host");
        }

        @Test
        void pathIsAppendedWithOneSlash() {
            assertThat(HttpSettings.target(route("https://hooks.example.com/onebeat/", Map.of(), Map.of("path", "/billing"))))
                    .hasToString("https://hooks.example.com/onebeat/billing");
            assertThat(HttpSettings.target(route("https://hooks.example.com/in", Map.of(), Map.of())))
                    .hasToString("https://hooks.example.com/in");
        }
    }

    /** {@link Webhooks}: the transport's sending, each task as a request its caller makes (the alert channel's way). */
    @Nested
    class RequestsOfTheCallers {

        private final WebhookServer server = newServer();
        private final TestTransportContext context = new TestTransportContext();

        @AfterEach
        void stop() throws Exception {
            context.close();
            server.close();
        }

        @Test
        void eachTaskIsSentAsTheRequestMadeOfItWithTheTransportsOutcomes() throws Exception {
            server.on("/down", (request, attempt) -> WebhookServer.Answer.of(503));
            Transport transport = Webhooks.transport(context, "test", Duration.ofSeconds(5), task ->
                    HttpRequest.newBuilder(URI.create(server.baseUrl() + "/" + task.jobName()))
                            .timeout(Duration.ofSeconds(5))
                            .header(Webhooks.KEY_HEADER, task.key().value())
                            .GET()
                            .build());

            List<Delivery> outcomes = transport.publish(List.of(task("up", "t", "{}"), task("down", "t", "{}")));

            assertThat(outcomes).extracting(Delivery::status)
                    .containsExactly(Delivery.Status.PUBLISHED, Delivery.Status.RETRY);
            WebhookServer.Request request = server.requests("/up").get(0);
            assertThat(request.method()).isEqualTo("GET");
            assertThat(request.header("Idempotency-Key")).isEqualTo("up/2026-11-29T08:00:00Z/t");
        }

        @Test
        void aTaskWhoseRequestCannotBeMadeIsRefusedUnsentWithTheReason() throws Exception {
            Transport transport = Webhooks.transport(context, "test", Duration.ofSeconds(5), task -> {
                throw new IllegalArgumentException("no url in the task");
            });

            List<Delivery> outcomes = transport.publish(List.of(task("job", "t", "{}")));

            assertThat(outcomes).containsExactly(Delivery.refused("not sent: no url in the task"));
            assertThat(server.requests()).isEmpty();
        }

        @Test
        void aBatchsDeadlineIsOneTimeoutPerEightTasks() {
            Transport transport = Webhooks.transport(context, "test", Duration.ofSeconds(5), task -> null);

            assertThat(transport.deadline(8)).contains(Duration.ofSeconds(5));
            assertThat(transport.deadline(9)).contains(Duration.ofSeconds(10));
        }
    }

    private static WebhookServer newServer() {
        try {
            return new WebhookServer();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot start the local webhook server", e);
        }
    }

    private static QueueRoute route(String url, Map<String, String> properties, Map<String, String> options) {
        return new QueueRoute("hooks-queue", "http", new BrokerSettings("hooks", BrokerType.HTTP, url, properties), options);
    }

    private static OutboundTask task(String job, String task, String payload) {
        return new OutboundTask(IdempotencyKey.of(job, SCHEDULED_AT, task, null), job, SCHEDULED_AT, task, "hooks-queue",
                null, null, TaskPayload.fromJson(payload), null);
    }
}
