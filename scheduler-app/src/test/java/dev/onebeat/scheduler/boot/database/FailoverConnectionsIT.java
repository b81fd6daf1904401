package dev.onebeat.scheduler.boot.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.job.TaskRequest;
import dev.onebeat.scheduler.FaultInjection;
import dev.onebeat.scheduler.OnebeatApplication;
import dev.onebeat.testsupport.PrivatePostgres;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * One replica in this JVM, with application.yaml's connection defaults, through a failover of a private primary to its
 * streaming standby, with no restart: a primary demoted to read-only behind one address that moves, and a primary
 * frozen (SIGSTOP) behind a multi-host URL. Each measures the time from the standby's promotion to the first fire
 * committed on it, and asserts a bound loose enough for a loaded machine; the figures are printed.
 */
@FaultInjection
class FailoverConnectionsIT {

    static final String JOB = "failover-1s";
    static final String DATABASE = "onebeat";
    /** The bound asserted; measured on an idle machine: see the printed figures and docs/postgresql.md. */
    static final Duration RESUME_BOUND = Duration.ofSeconds(30);

    @BeforeAll
    static void binaries() {
        assumeThat(PrivatePostgres.available()).as("PostgreSQL binaries").isTrue();
    }

    /**
     * The address moves to the promoted standby while every open connection stays on the old primary, which answers
     * read-only: the pool evicts them (counted), new ones reach the new primary, fires resume. A pool without the
     * eviction keeps handing out the same read-only session, which fails every write.
     */
    @Test
    void firesResumeOnTheNewPrimaryWhenTheOldOneAnswersReadOnlyBehindAnAddressThatMoves() throws Exception {
        try (PrivatePostgres p1 = PrivatePostgres.startPrimary("ro_p1");
             MovingForwarder address = new MovingForwarder(p1.port())) {
            try (PrivatePostgres p2 = standbyWithDatabase(p1, "ro_p2");
                 ConfigurableApplicationContext replica = start("jdbc:postgresql://127.0.0.1:" + address.port() + "/"
                         + DATABASE, "ro");
                 HikariDataSource evicting = pool(address, true);
                 HikariDataSource keeping = pool(address, false)) {
                execute(p1, "CREATE TABLE probe (pid INT)");
                awaitFires(p1, 3);
                long keptSession = backendPid(keeping);
                backendPid(evicting);

                p1.execute("ALTER SYSTEM SET default_transaction_read_only = on");
                p1.execute("SELECT pg_reload_conf()");
                p1.awaitStandbyCaughtUp("ro_p2", Duration.ofSeconds(30));
                p2.promote();
                long promoted = System.nanoTime();
                address.moveTo(p2.port());
                long before = fires(p2);

                for (int i = 0; i < 3; i++) {
                    assertThatThrownBy(() -> insertProbe(keeping)).as("without the eviction, write %d", i)
                            .hasFieldOrPropertyWithValue("SQLState", PoolEviction.READ_ONLY_SQL_STATE);
                }
                assertThat(backendPid(keeping)).as("the same read-only session, handed out again").isEqualTo(keptSession);
                assertThatThrownBy(() -> insertProbe(evicting))
                        .hasFieldOrPropertyWithValue("SQLState", PoolEviction.READ_ONLY_SQL_STATE);
                insertProbe(evicting);

                Duration resumed = awaitFiresAfter(p2, before, promoted);
                System.out.printf("read-only primary behind a moving address: fires resumed %d ms after promotion%n",
                        resumed.toMillis());
                assertThat(resumed).isLessThan(RESUME_BOUND);
                assertThat(evicted(replica)).as("onebeat_database_connections_evicted_total{reason=read-only}")
                        .isPositive();
                assertThat(fires(p1)).as("nothing written to the old primary since").isLessThanOrEqualTo(before);
            }
        }
    }

    /**
     * The primary stops answering with every socket open; the standby is promoted at once. Statements on the frozen
     * primary fail at the socket timeout, the driver moves on to the next host of the URL that accepts writes.
     */
    @Test
    void firesResumeOnTheNewPrimaryWhenTheOldOneFreezesBehindAMultiHostUrl() throws Exception {
        try (PrivatePostgres p1 = PrivatePostgres.startPrimary("frozen_p1")) {
            try (PrivatePostgres p2 = standbyWithDatabase(p1, "frozen_p2");
                 ConfigurableApplicationContext replica = start(PrivatePostgres.multiHostUrl(DATABASE, List.of(p1, p2)),
                         "frozen")) {
                awaitFires(p1, 3);
                p1.awaitStandbyCaughtUp("frozen_p2", Duration.ofSeconds(30));
                List<Long> frozen = p1.freeze();
                long frozenAt = System.nanoTime();
                try {
                    p2.promote();
                    long promoted = System.nanoTime();
                    long before = fires(p2);
                    Duration resumed = awaitFiresAfter(p2, before, promoted);
                    System.out.printf("frozen primary, multi-host URL: fires resumed %d ms after promotion, %d ms after"
                            + " the freeze%n", resumed.toMillis(), resumed.toMillis()
                            + Duration.ofNanos(promoted - frozenAt).toMillis());
                    assertThat(resumed).isLessThan(RESUME_BOUND);
                } finally {
                    p1.killFrozen(frozen);
                }
            }
        }
    }

    // the standby first: pg_basebackup's checkpoint of a primary with a database just created is spread over minutes
    private static PrivatePostgres standbyWithDatabase(PrivatePostgres primary, String standby) {
        PrivatePostgres node = primary.startStandby(standby);
        primary.createDatabase(DATABASE);
        return node;
    }

    private static ConfigurableApplicationContext start(String url, String node) {
        return new SpringApplicationBuilder(OnebeatApplication.class, EverySecond.class).run(
                "--spring.datasource.url=" + url,
                "--spring.datasource.username=" + PrivatePostgres.SUPERUSER,
                "--spring.datasource.password=",
                "--spring.quartz.properties.org.quartz.scheduler.instanceId=" + node,
                "--server.port=0", "--onebeat.demo.enabled=false", "--onebeat.jobs-dir=target/no-jobs",
                "--onebeat.retention.enabled=false");
    }

    private static HikariDataSource pool(MovingForwarder address, boolean evictReadOnly) {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl("jdbc:postgresql://127.0.0.1:" + address.port() + "/" + DATABASE);
        pool.setUsername(PrivatePostgres.SUPERUSER);
        pool.setMaximumPoolSize(1);
        if (evictReadOnly) {
            pool.setExceptionOverride(new PoolEviction(pool::getPoolName, Set.of(PoolEviction.Reason.READ_ONLY), () -> { },
                    reason -> { }, System::nanoTime));
        }
        return pool;
    }

    private static Duration awaitFiresAfter(PrivatePostgres node, long before, long since) {
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
                .until(() -> fires(node) > before);
        return Duration.ofNanos(System.nanoTime() - since);
    }

    private static void awaitFires(PrivatePostgres node, long count) {
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> fires(node) >= count);
    }

    private static long fires(PrivatePostgres node) throws SQLException {
        try (Connection connection = node.connect(DATABASE); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT count(*) FROM onebeat_fire WHERE job_name = '" + JOB
                     + "'")) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            // before the migrations ran
            return 0;
        }
    }

    private static long backendPid(DataSource pool) throws SQLException {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT pg_backend_pid()")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static void insertProbe(DataSource pool) throws SQLException {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO probe VALUES (pg_backend_pid())");
        }
    }

    private static void execute(PrivatePostgres node, String sql) throws SQLException {
        try (Connection connection = node.connect(DATABASE); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static double evicted(ConfigurableApplicationContext replica) {
        Counter counter = replica.getBean(MeterRegistry.class).find(PoolEviction.METRIC).tag("reason", "read-only")
                .counter();
        return counter == null ? 0 : counter.count();
    }

    // not a @Configuration: component scanning of other in-JVM tests must not pick this job up
    static class EverySecond {

        @Bean
        PeriodicJob failoverEverySecond() {
            return Jobs.periodic(JOB, Schedule.every(Duration.ofSeconds(1))).lockAtMostFor(Duration.ofSeconds(2))
                    .execute(ctx -> ctx.dispatch(TaskRequest.of("failover.tick", "failover")));
        }
    }
}
