package dev.onebeat.transport.celery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.TraceContext;
import org.junit.jupiter.api.Test;

class CeleryTraceTest {

    private static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void theTraceGoesInTheMessageHeadersWhereATaskReadsItsRequest() {
        OutboundTask plain = CeleryFixtures.add();
        OutboundTask traced = new OutboundTask(plain.key(), plain.jobName(), plain.scheduledAt(), plain.task(),
                plain.queue(), plain.entityType(), plain.entityId(),
                plain.payload().withTrace(new TraceContext(PARENT, "vendor=1")), null);

        assertThat(CeleryMessage.of(traced, CeleryFixtures.ORIGIN).headers()).containsEntry("traceparent", PARENT)
                .containsEntry("tracestate", "vendor=1");
        assertThat(CeleryMessage.of(plain, CeleryFixtures.ORIGIN).headers()).doesNotContainKey("traceparent");
    }
}
