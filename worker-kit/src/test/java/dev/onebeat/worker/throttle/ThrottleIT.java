package dev.onebeat.worker.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.worker.WorkerSchema;
import dev.onebeat.worker.metrics.WorkerMetrics;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresExtension.class)
class ThrottleIT {

    private static final Duration WINDOW = Duration.ofSeconds(1);

    private static HikariDataSource dataSource;

    private final AtomicInteger throttled = new AtomicInteger();
    private final Throttle throttle = new Throttle(new WorkerMetrics() {
        @Override
        public void throttled(String kind) {
            throttled.incrementAndGet();
        }
    });

    @BeforeAll
    static void migrate(TestDatabase database) {
        dataSource = WorkerSchema.migrated(database);
    }

    @AfterAll
    static void close() {
        dataSource.close();
    }

    @Test
    void eightConcurrentCallersAcquireOncePerWindow() throws Exception {
        assertThat(race("user-1")).isEqualTo(1);
        assertThat(throttled).hasValue(7);

        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                .until(() -> acquire("user-1"));
        assertThat(acquire("user-1")).isFalse();
    }

    @Test
    void secondRaceAfterTheWindowAlsoLetsExactlyOneThrough() throws Exception {
        assertThat(race("user-2")).isEqualTo(1);
        await().atMost(Duration.ofSeconds(10)).pollDelay(WINDOW).until(() -> windowEnded("user-2"));

        assertThat(race("user-2")).isEqualTo(1);
    }

    @Test
    void subjectsAndKindsHaveSeparateWindows() throws Exception {
        assertThat(acquire("user-3")).isTrue();
        assertThat(acquire("user-4")).isTrue();
        try (Connection connection = dataSource.getConnection()) {
            assertThat(throttle.tryAcquire(connection, "sms", "user-3", WINDOW)).isTrue();
        }
    }

    @Test
    void nonPositiveWindowIsRefused() throws Exception {
        try (Connection connection = dataSource.getConnection()) {
            assertThatThrownBy(() -> throttle.tryAcquire(connection, "push", "user-5", Duration.ZERO))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("window must be at least one millisecond, was PT0S");
        }
    }

    @Test
    void kindAndSubjectAsLongAsTheColumnsInEmojiAreThrottled() throws Exception {
        String emoji = "\uD83D\uDE00";
        String kind = emoji.repeat(100);
        String subject = emoji.repeat(200);
        try (Connection connection = dataSource.getConnection()) {
            assertThat(throttle.tryAcquire(connection, kind, subject, Duration.ofHours(1))).isTrue();
            assertThat(throttle.tryAcquire(connection, kind, subject, Duration.ofHours(1))).isFalse();
            assertThatThrownBy(() -> throttle.tryAcquire(connection, kind, subject + emoji, WINDOW))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("subject must be at most 200 characters (Unicode code points, as "
                            + "PostgreSQL counts VARCHAR), was 201");
        }
    }

    private int race(String subject) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(8);
        List<Future<Boolean>> results = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            results.add(threads.submit(() -> {
                start.await();
                return acquire(subject);
            }));
        }
        start.countDown();
        int acquired = 0;
        for (Future<Boolean> result : results) {
            acquired += result.get() ? 1 : 0;
        }
        threads.shutdown();
        return acquired;
    }

    private boolean acquire(String subject) throws Exception {
        try (Connection connection = dataSource.getConnection()) {
            return throttle.tryAcquire(connection, "push", subject, WINDOW);
        }
    }

    private static boolean windowEnded(String subject) throws Exception {
        try (Connection connection = dataSource.getConnection();
             var select = connection.prepareStatement(
                     "SELECT until <= now() FROM onebeat_throttle WHERE kind = 'push' AND subject = ?")) {
            select.setString(1, subject);
            try (var row = select.executeQuery()) {
                row.next();
                return row.getBoolean(1);
            }
        }
    }
}
