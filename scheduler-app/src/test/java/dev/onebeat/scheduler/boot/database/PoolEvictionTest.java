package dev.onebeat.scheduler.boot.database;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.zaxxer.hikari.SQLExceptionOverride.Override;
import dev.onebeat.scheduler.boot.database.PoolEviction.Reason;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

class PoolEvictionTest {

    private final AtomicInteger evictedAll = new AtomicInteger();
    private final List<Reason> counted = new ArrayList<>();
    private final AtomicLong now = new AtomicLong(1_000);
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(PoolEviction.class);

    @BeforeEach
    void captureLogs() {
        logs.start();
        logger.addAppender(logs);
    }

    @AfterEach
    void releaseLogs() {
        logger.detachAppender(logs);
    }

    private PoolEviction eviction(Set<Reason> reasons) {
        return new PoolEviction(() -> "onebeat", reasons, evictedAll::incrementAndGet, counted::add, now::get);
    }

    @Test
    void aReadOnlyAnswerEvictsTheConnectionAndThePoolAndCountsIt() {
        Override verdict = eviction(EnumSet.allOf(Reason.class)).adjudicate(new SQLException(
                "cannot execute INSERT in a read-only transaction", "25006"));

        assertThat(verdict).isEqualTo(Override.MUST_EVICT);
        assertThat(evictedAll).hasValue(1);
        assertThat(counted).containsExactly(Reason.READ_ONLY);
    }

    @ParameterizedTest
    @ValueSource(strings = {"08006", "08003", "08001", "08000", "57P01", "57P02", "57P03"})
    void aSessionTheServerEndedOrLostEvictsThePoolAndCountsIt(String sqlState) {
        Override verdict = eviction(EnumSet.allOf(Reason.class)).adjudicate(new SQLException("gone", sqlState));

        assertThat(verdict).isEqualTo(Override.MUST_EVICT);
        assertThat(evictedAll).hasValue(1);
        assertThat(counted).containsExactly(Reason.SESSION_LOST);
    }

    @Test
    void aSessionEndedForItsOwnIdlenessEvictsItselfAloneAndStopsHikariReadingTheChainedIoError() {
        // what pgjdbc throws after the server ended a session idle in its transaction past the timeout
        SQLException idle = new SQLException("FATAL: terminating connection due to idle-in-transaction timeout",
                "25P03");
        idle.setNextException(new SQLException("An I/O error occurred while sending to the backend.", "08006"));

        assertThat(eviction(EnumSet.allOf(Reason.class)).adjudicate(idle)).isEqualTo(Override.MUST_EVICT);
        assertThat(evictedAll).hasValue(0);
        assertThat(counted).isEmpty();
    }

    @Test
    void otherErrorsKeepHikarisOwnVerdict() {
        PoolEviction eviction = eviction(EnumSet.allOf(Reason.class));
        for (String state : new String[] {"23505", "40001", "55P03", "57014", "57P04", "25P02", "XX000", null}) {
            assertThat(eviction.adjudicate(new SQLException("error", state))).as(String.valueOf(state))
                    .isEqualTo(Override.CONTINUE_EVICT);
        }
        assertThat(evictedAll).hasValue(0);
        assertThat(counted).isEmpty();
    }

    @Test
    void aReasonTurnedOffKeepsHikarisVerdictForItAlone() {
        PoolEviction readOnlyOnly = eviction(EnumSet.of(Reason.READ_ONLY));

        assertThat(readOnlyOnly.adjudicate(new SQLException("gone", "57P01"))).isEqualTo(Override.CONTINUE_EVICT);
        assertThat(readOnlyOnly.adjudicate(new SQLException("read-only", "25006"))).isEqualTo(Override.MUST_EVICT);
        assertThat(eviction(EnumSet.of(Reason.SESSION_LOST)).adjudicate(new SQLException("read-only", "25006")))
                .isEqualTo(Override.CONTINUE_EVICT);
        assertThat(counted).containsExactly(Reason.READ_ONLY);
        assertThat(evictedAll).hasValue(1);
    }

    @Test
    void aRunOfErrorsOfOneReasonLogsOnceAndANewRunAgainEachReasonOnItsOwn() {
        PoolEviction eviction = eviction(EnumSet.allOf(Reason.class));
        for (int i = 0; i < 5; i++) {
            eviction.adjudicate(new SQLException("read-only", "25006"));
            eviction.adjudicate(new SQLException("terminated", "57P01"));
            now.addAndGet(1_000_000_000L);
        }
        now.addAndGet(PoolEviction.RUN_GAP_NANOS + 1);
        eviction.adjudicate(new SQLException("read-only", "25006"));

        assertThat(logs.list).extracting(ILoggingEvent::getFormattedMessage).satisfiesExactly(
                first -> assertThat(first).contains("reason=read-only", "sqlState=25006", "pool=onebeat"),
                second -> assertThat(second).contains("database ended a session or stopped answering it", "reason=session-lost",
                        "sqlState=57P01", "pool=onebeat", "error=\"terminated\""),
                third -> assertThat(third).contains("reason=read-only"));
        assertThat(counted).hasSize(11);
        assertThat(evictedAll).hasValue(11);
    }
}
