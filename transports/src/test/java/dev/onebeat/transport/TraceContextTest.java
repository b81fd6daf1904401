package dev.onebeat.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TraceContextTest {

    static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void aW3CContextGivesItsFieldsAndTraceId() {
        TraceContext trace = new TraceContext(PARENT, "congo=t61rcWkgMzE");

        assertThat(trace.present()).isTrue();
        assertThat(trace.traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(trace.fields()).containsExactly(Map.entry("traceparent", PARENT),
                Map.entry("tracestate", "congo=t61rcWkgMzE"));
        assertThat(TraceContext.NONE.fields()).isEmpty();
        assertThat(TraceContext.NONE.present()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01"})
    void aMalformedTraceparentIsRefusedNamingTheFieldAndLenientlyDropped(String traceparent) {
        assertThatThrownBy(() -> new TraceContext(traceparent, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("traceparent").hasMessageContaining("'" + traceparent + "'");
        assertThat(TraceContext.lenient(traceparent, "a=b")).isEqualTo(TraceContext.NONE);
    }

    @Test
    void aTracestateWithoutATraceparentOrNotPrintableAsciiIsRefusedAndLenientlyDropped() {
        assertThatThrownBy(() -> new TraceContext(null, "a=b")).hasMessageContaining("tracestate");
        assertThatThrownBy(() -> new TraceContext(PARENT, "a=b\r\nX: y")).hasMessageContaining("tracestate");
        assertThat(TraceContext.lenient(PARENT, "a=\u00e9")).as("the tracestate dropped, the parent kept")
                .isEqualTo(new TraceContext(PARENT, null));
    }

    @Test
    void thePayloadStoresItsTraceAndReadsItBackAndDropsOneThatIsNotValid() {
        TaskPayload payload = TaskPayload.of("[1]", "{\"a\":2}").withTrace(new TraceContext(PARENT, null));

        String json = payload.toJson();

        assertThat(json).isEqualTo("{\"args\":[1],\"kwargs\":{\"a\":2},\"trace\":{\"traceparent\":\"" + PARENT
                + "\"}}");
        assertThat(TaskPayload.fromJson(json)).isEqualTo(payload);
        assertThat(TaskPayload.of("[1]", "{}").toJson()).doesNotContain("trace");
        TaskPayload tampered = TaskPayload.fromJson("{\"args\":[1],\"kwargs\":{},\"trace\":{\"traceparent\":\"x\"}}");
        assertThat(tampered.trace()).isEqualTo(TraceContext.NONE);
        assertThat(tampered.argsJson()).isEqualTo("[1]");
        assertThat(TaskPayload.fromJson("{\"args\":[],\"trace\":7}").trace()).isEqualTo(TraceContext.NONE);
    }
}
