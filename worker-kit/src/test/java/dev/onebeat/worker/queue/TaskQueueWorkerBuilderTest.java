package dev.onebeat.worker.queue;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

class TaskQueueWorkerBuilderTest {

    private final DataSource dataSource = new PGSimpleDataSource();

    private TaskQueueWorkerBuilder valid() {
        return TaskQueueWorker.builder(dataSource).consumer("billing").queues("emails")
                .handler("send_reminder", (task, tx) -> { });
    }

    @Test
    void validConfigurationBuildsAWorkerWithoutTouchingTheDatabase() {
        assertThatCode(() -> valid().build().close()).doesNotThrowAnyException();
    }

    @Test
    void missingDataSourceIsNamed() {
        assertThatThrownBy(() -> TaskQueueWorker.builder(null).consumer("billing").queues("emails")
                .handler("send_reminder", (task, tx) -> { }).build())
                .hasMessage("dataSource must not be null");
    }

    @Test
    void missingConsumerIsNamed() {
        assertThatThrownBy(() -> valid().consumer(null).build()).hasMessage("consumer must not be null");
    }

    @Test
    void blankQueueIsNamedByPosition() {
        assertThatThrownBy(() -> valid().queues(" ").build()).hasMessage("queues[1] must not be blank, was ' '");
    }

    @Test
    void workerWithoutHandlersIsRejected() {
        assertThatThrownBy(() -> TaskQueueWorker.builder(dataSource).consumer("billing").queues("emails").build())
                .hasMessage("handlers must register at least one task handler");
    }

    @Test
    void secondHandlerForOneTaskIsRejected() {
        assertThatThrownBy(() -> valid().handler("send_reminder", (task, tx) -> { }))
                .hasMessage("handler for task 'send_reminder' is already registered");
    }

    @Test
    void zeroConcurrencyIsNamedWithItsValue() {
        assertThatThrownBy(() -> valid().concurrency(0).build()).hasMessage("concurrency must be at least 1, was 0");
    }

    @Test
    void zeroBatchSizeIsNamedWithItsValue() {
        assertThatThrownBy(() -> valid().batchSize(0).build()).hasMessage("batchSize must be at least 1, was 0");
    }

    @Test
    void leaseTooShortForItsHeartbeatIsRejected() {
        assertThatThrownBy(() -> valid().lease(Duration.ofMillis(100)).build())
                .hasMessage("lease must be at least PT0.3S, was PT0.1S");
    }

    @Test
    void zeroPollIntervalIsRejected() {
        assertThatThrownBy(() -> valid().pollInterval(Duration.ZERO).build())
                .hasMessage("pollInterval must be positive, was PT0S");
    }

    @Test
    void workerStartsOnlyOnce() {
        TaskQueueWorker worker = valid().build();
        worker.close();
        assertThatThrownBy(worker::start).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("was already started");
    }
}
