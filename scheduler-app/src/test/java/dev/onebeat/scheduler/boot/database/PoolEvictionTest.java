package dev.onebeat.scheduler.boot.database;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.zaxxer.hikari.SQLExceptionOverride.Override;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class ReadOnlyEvictionTest {

    private final AtomicInteger evictedAll = new AtomicInteger();
    private final AtomicInteger counted = new AtomicInteger();
    private final AtomicLong now = new AtomicLong(1_000);
    private final ReadOnlyEviction eviction = new ReadOnlyEviction(() -> "onebeat", evictedAll::incrementAndGet,
            counted::incrementAndGet, now::get);
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(ReadOnlyEviction.class);

    @BeforeEach
    void captureLogs() {
        logs.start();
        logger.addAppender(logs);
    }

    @AfterEach
    void releaseLogs() {
        logger.detachAppender(logs);
    }

    @Test
    void aReadOnlyAnswerEvictsTheConnectionAndThePoolAndCountsIt() {
        Override verdict = eviction.adjudicate(new SQLException("cannot execute INSERT in a read-only transaction",
                "25006"));

        assertThat(verdict).isEqualTo(Override.MUST_EVICT);
        assertThat(evictedAll).hasValue(1);
        assertThat(counted).hasValue(1);
    }

    @Test
    void otherErrorsKeepHikarisOwnVerdict() {
        for (String state : new String[] {"08006", "57P01", "23505", "40001", "55P03", null}) {
            assertThat(eviction.adjudicate(new SQLException("error", state))).as(String.valueOf(state))
                    .isEqualTo(Override.CONTINUE_EVICT);
        }
        assertThat(evictedAll).hasValue(0);
        assertThat(counted).hasValue(0);
    }

    @Test
    void aRunOfReadOnlyAnswersLogsOnceAndANewRunAgain() {
        for (int i = 0; i < 5; i++) {
            eviction.adjudicate(new SQLException("read-only", "25006"));
            now.addAndGet(1_000_000_000L);
        }
        now.addAndGet(ReadOnlyEviction.RUN_GAP_NANOS + 1);
        eviction.adjudicate(new SQLException("read-only", "25006"));

        assertThat(logs.list).hasSize(2).allSatisfy(event -> assertThat(event.getFormattedMessage())
                .contains("reason=read-only", "sqlState=25006", "pool=onebeat"));
        assertThat(counted).hasValue(6);
    }
}
