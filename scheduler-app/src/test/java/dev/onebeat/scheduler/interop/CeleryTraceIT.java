package dev.onebeat.scheduler.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.engine.trace.Traces;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Tracing on ({@code management.tracing.export.enabled=true}), a span exporter of the test's own beside Boot's: a real
 * Celery worker reads in its {@code self.request.traceparent} the publish span of the relay, whose parent is the span
 * of the fire that dispatched the task, stored with the outbox row: one trace from the schedule to the work, through
 * both fire paths (a job written in code fires alone, {@value Traces#FIRE}; a job defined by data fires in its
 * schedule's batch, {@value Traces#BATCH}).
 */
@SchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, "management.tracing.export.enabled=true",
        "management.opentelemetry.tracing.export.schedule-delay=100ms"})
@Import(CeleryTraceIT.Exporter.class)
class CeleryTraceIT extends CeleryInteropCase {

    private static final Broker BROKER = Broker.redis();
    private static final AttributeKey<String> KEY = AttributeKey.stringKey("onebeat.idempotency_key");

    @Autowired
    InMemorySpanExporter spans;

    CeleryTraceIT() throws Exception {
        super(BROKER);
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        BROKER.register(registry);
    }

    /** Every published task ran once, as without tracing; then the trace each carried (the relay stops after a test). */
    @Test
    @Override
    void celeryWorkerRunsEveryPublishedTaskOnceUnderItsTaskIdWithItsArgumentsKeyAndInstant() {
        super.celeryWorkerRunsEveryPublishedTaskOnceUnderItsTaskIdWithItsArgumentsKeyAndInstant();
        theWorkerReadsThePublishSpanWhoseParentIsTheFireThatDispatchedTheTask();
    }

    private void theWorkerReadsThePublishSpanWhoseParentIsTheFireThatDispatchedTheTask() {
        List<JsonNode> traced = await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                .until(() -> worker().records().stream().filter(record -> record.hasNonNull("traceparent")).toList(),
                        records -> records.stream().map(record -> record.get("idempotency_key").asString())
                                .filter(key -> key.startsWith(InteropJobs.FAN_OUT_JOB + "/")
                                        || key.startsWith(InteropJobs.DECLARATIVE_JOB + "/")).map(key -> key
                                        .substring(0, key.indexOf('/'))).distinct().count() == 2);
        Set<String> parents = traced.stream().map(record -> record.get("traceparent").asString().substring(36, 52))
                .collect(Collectors.toSet());
        Map<String, SpanData> byId = await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> spans.getFinishedSpanItems().stream()
                        .collect(Collectors.toMap(SpanData::getSpanId, Function.identity(), (a, b) -> a)),
                        exported -> exported.keySet().containsAll(parents));

        Map<String, Long> fireSpans = traced.stream().map(record -> {
            String traceparent = record.get("traceparent").asString();
            SpanData publish = byId.get(traceparent.substring(36, 52));
            assertThat(publish.getName()).isEqualTo(Traces.PUBLISH);
            assertThat(publish.getKind()).isEqualTo(SpanKind.PRODUCER);
            assertThat(publish.getTraceId()).as("the worker's trace id").isEqualTo(traceparent.substring(3, 35));
            assertThat(publish.getAttributes().get(KEY)).isEqualTo(record.get("idempotency_key").asString());
            assertThat(publish.getAttributes().get(AttributeKey.stringKey("messaging.system"))).isEqualTo("celery");
            SpanData fire = byId.get(publish.getParentSpanId());
            assertThat(fire).as("the fire span, parent of the publish of " + record.get("idempotency_key")).isNotNull();
            assertThat(fire.getTraceId()).isEqualTo(publish.getTraceId());
            assertThat(fire.getAttributes().get(AttributeKey.stringKey("onebeat.outcome")))
                    .isIn("committed", "partly-failed");
            return fire.getName();
        }).collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        assertThat(fireSpans).containsKeys(Traces.FIRE, Traces.BATCH);

        JsonNode one = traced.get(0);
        String trace = one.get("traceparent").asString().substring(3, 35);
        System.out.printf("one trace, as the worker saw it: traceparent=%s key=%s%n", one.get("traceparent")
                .asString(), one.get("idempotency_key").asString());
        spans.getFinishedSpanItems().stream().filter(span -> span.getTraceId().equals(trace))
                .filter(span -> !span.getName().equals(Traces.PUBLISH) || span.getAttributes().get(KEY)
                        .equals(one.get("idempotency_key").asString()))
                .forEach(span -> System.out.printf("  span name=%s kind=%s trace=%s id=%s parent=%s attributes=%s%n",
                        span.getName(), span.getKind(), span.getTraceId(), span.getSpanId(), span.getParentSpanId(),
                        span.getAttributes().asMap()));
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class Exporter {
        @Bean
        InMemorySpanExporter inMemorySpanExporter() {
            return InMemorySpanExporter.create();
        }
    }
}
