package dev.onebeat.transport.kafka;

import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.TaskJson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * The Kafka record of a task: key {@code type:id} of its business entity, so the tasks of one entity
 * land in one partition in order, or the idempotency key when it has none; value the
 * {@link TaskJson}; headers {@code idempotency-key}, {@code onebeat-job}, {@code onebeat-scheduled-at}
 * and {@code onebeat-task}, UTF-8. Partition and timestamp are left to the producer.
 */
final class KafkaRecords {

    private KafkaRecords() {
    }

    /**
     * @param topic the topic
     * @param task the task
     * @return its record
     */
    static ProducerRecord<byte[], byte[]> record(String topic, OutboundTask task) {
        String key = task.entityType() == null ? task.key().value() : task.entityType() + ":" + task.entityId();
        List<Header> headers = new ArrayList<>(List.of(
                header(TaskJson.KEY_HEADER, task.key().value()),
                header(TaskJson.JOB_HEADER, task.jobName()),
                header(TaskJson.SCHEDULED_AT_HEADER, task.scheduledAt().toString()),
                header(TaskJson.TASK_HEADER, task.task())));
        task.payload().trace().fields().forEach((name, value) -> headers.add(header(name, value)));
        return new ProducerRecord<>(topic, null, null, utf8(key), TaskJson.body(task), headers);
    }

    private static Header header(String name, String value) {
        return new RecordHeader(name, utf8(value));
    }

    private static byte[] utf8(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }
}
