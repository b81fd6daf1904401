package dev.onebeat.transport.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.job.Entity;
import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.TaskPayload;
import dev.onebeat.transport.TraceContext;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

class KafkaRecordsTest {

    private static final Instant SCHEDULED_AT = Instant.parse("2026-11-29T08:00:00Z");

    @Test
    void taskOfAnEntityIsKeyedByTypeAndIdWithItsJsonAndHeaders() {
        IdempotencyKey key = IdempotencyKey.of("invoice-reminders", SCHEDULED_AT, "send_reminder", Entity.of("order", 42));
        OutboundTask task = new OutboundTask(key, "invoice-reminders", SCHEDULED_AT, "send_reminder", "billing",
                "order", "42", TaskPayload.fromJson("{\"args\": [42, \"é\"], \"kwargs\": {\"late\": true}}"), null);

        ProducerRecord<byte[], byte[]> record = KafkaRecords.record("billing-tasks", task);

        assertThat(record.topic()).isEqualTo("billing-tasks");
        assertThat(record.partition()).isNull();
        assertThat(record.timestamp()).isNull();
        assertThat(record.key()).isEqualTo(utf8("order:42"));
        assertThat(record.value()).isEqualTo(utf8("{\"task\":\"send_reminder\",\"args\":[42,\"é\"],"
                + "\"kwargs\":{\"late\":true},\"job\":\"invoice-reminders\",\"scheduled_at\":\"2026-11-29T08:00:00Z\","
                + "\"idempotency_key\":\"invoice-reminders/2026-11-29T08:00:00Z/send_reminder/order:42\","
                + "\"entity\":{\"type\":\"order\",\"id\":\"42\"}}"));
        assertThat(headers(record)).containsExactly(
                "idempotency-key=invoice-reminders/2026-11-29T08:00:00Z/send_reminder/order:42",
                "onebeat-job=invoice-reminders",
                "onebeat-scheduled-at=2026-11-29T08:00:00Z",
                "onebeat-task=send_reminder");
    }

    @Test
    void taskWithoutEntityIsKeyedByItsIdempotencyKey() {
        IdempotencyKey key = IdempotencyKey.of("nightly", SCHEDULED_AT, "reports.build", null);
        OutboundTask task = new OutboundTask(key, "nightly", SCHEDULED_AT, "reports.build", "reports",
                null, null, TaskPayload.fromJson("{}"), null);

        ProducerRecord<byte[], byte[]> record = KafkaRecords.record("reports", task);

        assertThat(record.key()).isEqualTo(utf8("nightly/2026-11-29T08:00:00Z/reports.build"));
        assertThat(record.value()).isEqualTo(utf8("{\"task\":\"reports.build\",\"args\":[],\"kwargs\":{},"
                + "\"job\":\"nightly\",\"scheduled_at\":\"2026-11-29T08:00:00Z\","
                + "\"idempotency_key\":\"nightly/2026-11-29T08:00:00Z/reports.build\",\"entity\":null}"));
        assertThat(headers(record)).containsExactly(
                "idempotency-key=nightly/2026-11-29T08:00:00Z/reports.build",
                "onebeat-job=nightly",
                "onebeat-scheduled-at=2026-11-29T08:00:00Z",
                "onebeat-task=reports.build");
    }

    private static List<String> headers(ProducerRecord<byte[], byte[]> record) {
        return Arrays.stream(record.headers().toArray())
                .map(KafkaRecordsTest::describe)
                .toList();
    }

    private static String describe(Header header) {
        return header.key() + "=" + new String(header.value(), StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aTracedTaskCarriesTraceparentAndTracestateHeaders() {
        IdempotencyKey key = IdempotencyKey.of("j", SCHEDULED_AT, "t", null);
        String parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        OutboundTask task = new OutboundTask(key, "j", SCHEDULED_AT, "t", "q", null, null,
                TaskPayload.of("[]", "{}").withTrace(new TraceContext(parent, "v=1")), null);

        ProducerRecord<byte[], byte[]> record = KafkaRecords.record("topic", task);

        assertThat(record.headers().lastHeader("traceparent").value()).isEqualTo(utf8(parent));
        assertThat(record.headers().lastHeader("tracestate").value()).isEqualTo(utf8("v=1"));
    }
}
