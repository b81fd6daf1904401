package dev.onebeat.scheduler.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.impl.StdSchedulerFactory;

/**
 * The same-run baseline: Quartz alone, clustered on the JDBC job store of its own fresh database on
 * the same server, one node, firing N one-shot triggers all due on one instant with a job that does
 * nothing but note when it ran. What it measures is Quartz's own cost per fire: acquiring the
 * trigger, {@code triggersFired}, and completing it, each a transaction under the cluster's row
 * lock. With batch acquisition Quartz acquires {@code min(threads, batch)} triggers per round.
 */
final class RawQuartzBurst {

    private static final ConcurrentLinkedQueue<Long> EXECUTED = new ConcurrentLinkedQueue<>();

    /** What raw Quartz did with one batch size. */
    record Result(int batch, int threads, int triggers, int fired, Duration last, Latencies lags) {

        double firesPerSecond() {
            return fired / (last.toNanos() / 1e9);
        }

        String summary() {
            return String.format(Locale.ROOT, "raw Quartz, batch %d, %d threads: %,d of %,d fired, last %s after the"
                            + " instant: %.0f fires/s; lag p50 %.0f ms, p99 %.0f ms", batch, threads, fired, triggers,
                    CommitTimes.millis(last), firesPerSecond(), lags.medianMillis(), lags.percentileMillis(99));
        }
    }

    /** The job of every raw trigger: notes the time it ran, nothing else. */
    public static final class NoteTime implements Job {
        @Override
        public void execute(JobExecutionContext context) {
            EXECUTED.add(System.currentTimeMillis());
        }
    }

    private final String adminUrl;

    RawQuartzBurst(String adminUrl) {
        this.adminUrl = adminUrl;
    }

    Result run(int triggers, int batch, int threads) throws Exception {
        try (BenchDatabase database = BenchDatabase.create(adminUrl)) {
            createTables(database);
            Scheduler scheduler = new StdSchedulerFactory(properties(database, batch, threads)).getScheduler();
            try {
                // stored while the scheduler is in standby, far ahead; moved to the instant just before it starts
                Instant parked = Instant.now().plus(Duration.ofHours(1));
                Map<JobDetail, Set<? extends Trigger>> jobs = new HashMap<>();
                for (int i = 0; i < triggers; i++) {
                    JobDetail job = JobBuilder.newJob(NoteTime.class).withIdentity("raw-" + i, "raw").build();
                    Trigger trigger = TriggerBuilder.newTrigger().withIdentity("raw-" + i, "raw").forJob(job)
                            .startAt(Date.from(parked))
                            .withSchedule(SimpleScheduleBuilder.simpleSchedule().withRepeatCount(0)
                                    .withMisfireHandlingInstructionFireNow())
                            .build();
                    jobs.put(job, Set.of(trigger));
                }
                scheduler.scheduleJobs(jobs, false);
                EXECUTED.clear();
                Instant instant = Instant.now().plusSeconds(3).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
                moveTo(database, instant);
                scheduler.start();
                long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
                while (EXECUTED.size() < triggers && System.nanoTime() < deadline) {
                    BenchDatabase.sleep(Duration.ofMillis(100));
                }
                List<Long> lags = new ArrayList<>();
                long last = 0;
                for (long executed : EXECUTED) {
                    lags.add((executed - instant.toEpochMilli()) * 1_000_000);
                    last = Math.max(last, executed);
                }
                return new Result(batch, threads, triggers, lags.size(), Duration.ofMillis(last - instant.toEpochMilli()),
                        new Latencies("raw", lags));
            } finally {
                scheduler.shutdown(true);
            }
        }
    }

    private static void moveTo(BenchDatabase database, Instant instant) throws SQLException {
        try (Connection connection = database.connect();
             PreparedStatement update = connection.prepareStatement("UPDATE qrtz_triggers SET next_fire_time = ?,"
                     + " start_time = ?")) {
            update.setLong(1, instant.toEpochMilli());
            update.setLong(2, instant.toEpochMilli());
            update.executeUpdate();
        }
        // the planner otherwise sees empty tables (autovacuum may be off)
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            statement.execute("ANALYZE");
        }
        if (Instant.now().isAfter(instant)) {
            throw new IllegalStateException("storing took past the instant " + instant);
        }
    }

    /** Quartz's own PostgreSQL tables, from the script in its jar. */
    private static void createTables(BenchDatabase database) throws IOException, SQLException {
        String script;
        try (InputStream in = Scheduler.class.getResourceAsStream("/org/quartz/impl/jdbcjobstore/tables_postgres.sql")) {
            if (in == null) {
                throw new IllegalStateException("tables_postgres.sql is not in the Quartz jar");
            }
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        StringBuilder withoutComments = new StringBuilder();
        script.lines().filter(line -> !line.strip().startsWith("--")).forEach(line -> withoutComments.append(line).append('\n'));
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            for (String sql : withoutComments.toString().split(";")) {
                if (!sql.isBlank() && !sql.strip().equalsIgnoreCase("COMMIT")) {
                    statement.execute(sql);
                }
            }
        }
    }

    private static Properties properties(BenchDatabase database, int batch, int threads) {
        Properties properties = new Properties();
        properties.setProperty("org.quartz.scheduler.instanceName", "raw");
        properties.setProperty("org.quartz.scheduler.instanceId", "raw-1");
        properties.setProperty("org.quartz.scheduler.skipUpdateCheck", "true");
        properties.setProperty("org.quartz.scheduler.batchTriggerAcquisitionMaxCount", Integer.toString(batch));
        properties.setProperty("org.quartz.threadPool.threadCount", Integer.toString(threads));
        properties.setProperty("org.quartz.jobStore.class", "org.quartz.impl.jdbcjobstore.JobStoreTX");
        properties.setProperty("org.quartz.jobStore.driverDelegateClass", "org.quartz.impl.jdbcjobstore.PostgreSQLDelegate");
        properties.setProperty("org.quartz.jobStore.isClustered", "true");
        properties.setProperty("org.quartz.jobStore.acquireTriggersWithinLock", "true");
        properties.setProperty("org.quartz.jobStore.dataSource", "raw");
        properties.setProperty("org.quartz.dataSource.raw.provider", "hikaricp");
        properties.setProperty("org.quartz.dataSource.raw.driver", "org.postgresql.Driver");
        properties.setProperty("org.quartz.dataSource.raw.URL", database.url());
        properties.setProperty("org.quartz.dataSource.raw.maxConnections", Integer.toString(threads + 5));
        return properties;
    }
}
