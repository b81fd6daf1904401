package dev.onebeat.scheduler.engine.trace;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.mock.env.MockEnvironment;

class TracesTest {

    private static final Instant AT = Instant.parse("2026-12-05T08:00:00Z");

    private final InMemorySpanExporter exported = InMemorySpanExporter.create();
    private final SdkTracerProvider provider = SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(exported)).build();
    private final OtelTracer tracer = new OtelTracer(provider.get("test"), new OtelCurrentTraceContext(), event -> { });
    private final Traces traces = new Traces(tracer);

    @AfterEach
    void close() {
        provider.close();
    }

    @Test
    void theFireSpanIsCurrentWhileItRunsAndItsContextIsWhatTheTasksStore() {
        W3cContext stored;
        String fireId;
        try (SpanHandle fire = traces.fire("report", AT, "scheduled", "node-1")) {
            stored = traces.current();
            fireId = tracer.currentSpan().context().spanId();
            fire.outcome("committed", null);
        }

        assertThat(stored.traceparent()).matches("00-[0-9a-f]{32}-" + fireId + "-01");
        assertThat(traces.current()).as("after the fire").isEqualTo(W3cContext.NONE);
        SpanData span = only();
        assertThat(span.getName()).isEqualTo(Traces.FIRE);
        assertThat(span.getAttributes().get(AttributeKey.stringKey("onebeat.job"))).isEqualTo("report");
        assertThat(span.getAttributes().get(AttributeKey.stringKey("onebeat.outcome"))).isEqualTo("committed");
    }

    @Test
    void aPublishIsAChildOfTheStoredContextOnAnotherThreadOrReplicaAndItsOwnContextGoesToTheWorker() {
        String parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

        W3cContext message;
        try (SpanHandle publish = traces.publish(parent, "send", "billing", "celery", "k/1")) {
            message = publish.context();
            publish.outcome("published", null);
        }

        SpanData span = only();
        assertThat(span.getName()).isEqualTo(Traces.PUBLISH);
        assertThat(span.getTraceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(span.getParentSpanId()).isEqualTo("00f067aa0ba902b7");
        assertThat(message.traceparent()).isEqualTo("00-4bf92f3577b34da6a3ce929d0e0e4736-" + span.getSpanId() + "-01");
    }

    @Test
    void aPublishWithoutAStoredContextStartsATraceOfItsOwn() {
        try (SpanHandle publish = traces.publish(null, "send", "billing", "rq", "k/2")) {
            assertThat(publish.context().traceparent()).isNotNull();
        }
        assertThat(only().getParentSpanId()).isEqualTo("0000000000000000");
    }

    @Test
    void offMakesNothing() {
        try (SpanHandle fire = Traces.OFF.fire("report", AT, "scheduled", "node-1")) {
            assertThat(Traces.OFF.current()).isEqualTo(W3cContext.NONE);
            assertThat(fire.context()).isEqualTo(W3cContext.NONE);
        }
        assertThat(Traces.OFF.publish("x", "t", "q", "celery", "k").context()).isEqualTo(W3cContext.NONE);
        assertThat(exported.getFinishedSpanItems()).isEmpty();
    }

    @Test
    void tracesAreOnOnlyWithBootsExportSwitchAndATracer() {
        StaticListableBeanFactory beans = new StaticListableBeanFactory();
        beans.addBean("tracer", tracer);
        TracingConfiguration configuration = new TracingConfiguration();

        assertThat(configuration.traces(new MockEnvironment(), beans.getBeanProvider(Tracer.class))
                .on()).as("by default").isFalse();
        assertThat(configuration.traces(new MockEnvironment().withProperty(TracingConfiguration.EXPORT_ENABLED, "true"),
                beans.getBeanProvider(Tracer.class)).on()).isTrue();
        assertThat(configuration.traces(new MockEnvironment().withProperty(TracingConfiguration.EXPORT_ENABLED, "true"),
                new StaticListableBeanFactory().getBeanProvider(Tracer.class)).on())
                .as("no tracer").isFalse();
    }

    private SpanData only() {
        List<SpanData> spans = exported.getFinishedSpanItems();
        assertThat(spans).hasSize(1);
        return spans.get(0);
    }
}
