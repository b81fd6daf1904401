package dev.onebeat.worker.journal;

import dev.onebeat.worker.CountingMetrics;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.worker.WorkerSchema;
import dev.onebeat.worker.metrics.WorkerMetrics;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresExtension.class)
class IdempotentConsumerIT {

    private static HikariDataSource dataSource;
    private static Effects effects;

    @BeforeAll
    static void migrate(TestDatabase database) throws Exception {
        dataSource = WorkerSchema.migrated(database);
        effects = new Effects(dataSource);
    }

    @AfterAll
    static void close() {
        dataSource.close();
    }

    @Test
    void eightThreadsRacingOneKeyApplyTheEffectOnce() throws Exception {
        CountingMetrics metrics = new CountingMetrics();
        IdempotentConsumer consumer = IdempotentConsumer.of(dataSource, "race", metrics);
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(8);
        List<Future<Boolean>> results = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            results.add(threads.submit(() -> {
                start.await();
                return consumer.process("order-1", tx -> Effects.apply(tx, "race-order-1"));
            }));
        }
        start.countDown();
        int applied = 0;
        for (Future<Boolean> result : results) {
            applied += result.get() ? 1 : 0;
        }
        threads.shutdown();

        assertThat(applied).isEqualTo(1);
        assertThat(effects.count("race-order-1")).isEqualTo(1);
        assertThat(metrics.duplicates).hasValue(7);
        assertThat(metrics.processed).hasValue(1);
    }

    @Test
    void failureInsideTheWorkLeavesNoJournalRowAndTheRedeliveryAppliesIt() throws Exception {
        IdempotentConsumer consumer = IdempotentConsumer.of(dataSource, "failing", WorkerMetrics.NOOP);

        assertThatThrownBy(() -> consumer.process("order-2", tx -> {
            Effects.apply(tx, "failing-order-2");
            throw new IllegalStateException("mail server said no");
        })).isInstanceOf(IllegalStateException.class).hasMessage("mail server said no");
        assertThat(effects.journalRows("order-2")).isZero();
        assertThat(effects.count("failing-order-2")).isZero();

        assertThat(consumer.process("order-2", tx -> Effects.apply(tx, "failing-order-2"))).isTrue();
        assertThat(consumer.process("order-2", tx -> Effects.apply(tx, "failing-order-2"))).isFalse();
        assertThat(effects.count("failing-order-2")).isEqualTo(1);
    }

    @Test
    void checkedExceptionOfTheWorkIsWrappedWithConsumerAndKey() {
        IdempotentConsumer consumer = IdempotentConsumer.of(dataSource, "checked", WorkerMetrics.NOOP);

        assertThatThrownBy(() -> consumer.process("order-3", tx -> {
            throw new java.io.IOException("socket closed");
        })).isInstanceOf(JournalException.class)
                .hasMessageContaining("consumer=checked key=order-3")
                .hasRootCauseMessage("socket closed");
    }

    @Test
    void consumersKeepSeparateJournals() throws Exception {
        IdempotentConsumer mail = IdempotentConsumer.of(dataSource, "mail", WorkerMetrics.NOOP);
        IdempotentConsumer bonus = IdempotentConsumer.of(dataSource, "bonus", WorkerMetrics.NOOP);

        assertThat(mail.process("order-4", tx -> Effects.apply(tx, "order-4-mail"))).isTrue();
        assertThat(bonus.process("order-4", tx -> Effects.apply(tx, "order-4-bonus"))).isTrue();
    }

    @Test
    void journalInTheCallersTransactionRollsBackWithIt() throws Exception {
        ProcessedJournal journal = new ProcessedJournal(WorkerMetrics.NOOP);
        try (Connection transaction = dataSource.getConnection()) {
            transaction.setAutoCommit(false);
            assertThat(journal.processOnce(transaction, "caller", "order-5", tx -> Effects.apply(tx, "caller-order-5")))
                    .isTrue();
            transaction.rollback();
            assertThat(journal.processOnce(transaction, "caller", "order-5", tx -> Effects.apply(tx, "caller-order-5")))
                    .isTrue();
            transaction.commit();
            assertThat(journal.processOnce(transaction, "caller", "order-5", tx -> Effects.apply(tx, "caller-order-5")))
                    .isFalse();
            transaction.commit();
        }
        assertThat(effects.count("caller-order-5")).isEqualTo(1);
    }

    @Test
    void blankOrOverlongKeyIsRefusedWithItsLength() {
        IdempotentConsumer consumer = IdempotentConsumer.of(dataSource, "keys", WorkerMetrics.NOOP);

        assertThatThrownBy(() -> consumer.process(" ", tx -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("key must not be blank, was ' '");
        assertThatThrownBy(() -> consumer.process("k".repeat(321), tx -> { }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("key must be at most 320 characters (Unicode code points, as PostgreSQL counts "
                        + "VARCHAR), was 321");
    }

    @Test
    void keyAndConsumerAsLongAsTheColumnsInEmojiAreJournaledUnchanged() throws Exception {
        String emoji = "\uD83D\uDE00";
        String key = emoji.repeat(320);
        IdempotentConsumer consumer = IdempotentConsumer.of(dataSource, "c".repeat(199) + emoji, WorkerMetrics.NOOP);

        assertThat(consumer.process(key, tx -> { })).isTrue();
        assertThat(consumer.process(key, tx -> { })).isFalse();
        assertThat(effects.journalRows(key)).isEqualTo(1);
    }
}
