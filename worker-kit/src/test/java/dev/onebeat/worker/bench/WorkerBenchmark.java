package dev.onebeat.worker.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.worker.queue.TaskQueueWorker;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import liquibase.Liquibase;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;

/**
 * Worker throughput: the in-database queue worker at 1, 4 and 16 threads, with the processed-key
 * journal at one task per transaction and at {@code group} tasks per transaction, and without the
 * journal, beside a raw {@code DELETE … FOR UPDATE SKIP LOCKED} claim loop of the same
 * rows on the same database, taking turns. Prints figures; asserts nothing.
 *
 * <p>Server: {@code ONEBEAT_BENCH_JDBC_URL} (default the local PostgreSQL, user postgres). A fresh
 * database is created and dropped. Arguments: {@code tasks=10000 threads=1,4,16 rounds=1 group=20}
 * ({@code group}: tasks per transaction of the grouped runs).
 */
public final class WorkerBenchmark {

    private static final String QUEUE = "bench";

    private WorkerBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int tasks = intArg(args, "tasks", 10_000);
        int rounds = intArg(args, "rounds", 1);
        int group = intArg(args, "group", 20);
        List<Integer> threadCounts = new ArrayList<>();
        for (String t : stringArg(args, "threads", "1,4,16").split(",")) {
            threadCounts.add(Integer.parseInt(t.trim()));
        }
        String admin = System.getenv().getOrDefault("ONEBEAT_BENCH_JDBC_URL",
                "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres");
        String name = "onebeat_wbench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        execute(admin, "CREATE DATABASE " + name + " TEMPLATE template0");
        try (HikariDataSource dataSource = new HikariDataSource()) {
            dataSource.setJdbcUrl(admin.replaceFirst("/postgres(\\?|$)", "/" + name + "$1"));
            dataSource.setMaximumPoolSize(40);
            migrate(dataSource);
            System.out.printf(Locale.ROOT, "worker benchmark: %d tasks per run, %d rounds, database %s, %s%n",
                    tasks, rounds, name, serverVersion(dataSource));
            System.out.printf(Locale.ROOT, "%7s | %12s | %12s | %12s | %9s | %11s | %11s | %11s%n", "threads",
                    "journal,1/tx", "journal," + group + "/tx", "no jrnl," + group + "/tx", "raw rows/s",
                    "1/tx : raw", group + "/tx : raw", "no jrnl:raw");
            for (int threads : threadCounts) {
                List<Double> single = new ArrayList<>();
                List<Double> grouped = new ArrayList<>();
                List<Double> unjournaled = new ArrayList<>();
                List<Double> raw = new ArrayList<>();
                for (int round = 0; round < rounds; round++) {
                    single.add(worker(dataSource, tasks, threads, true, 1));
                    raw.add(rawLoop(dataSource, tasks, threads));
                    grouped.add(worker(dataSource, tasks, threads, true, group));
                    unjournaled.add(worker(dataSource, tasks, threads, false, group));
                }
                double r = best(raw);
                System.out.printf(Locale.ROOT, "%7d | %12.0f | %12.0f | %12.0f | %9.0f | %10.0f%% | %10.0f%% | %10.0f%%%n",
                        threads, best(single), best(grouped), best(unjournaled), r, 100 * best(single) / r,
                        100 * best(grouped) / r, 100 * best(unjournaled) / r);
            }
            System.out.println("(best of the rounds; target: worker with journal >= 50% of raw, PERFORMANCE.md)");
        } finally {
            execute(admin, "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        }
    }

    private static double worker(HikariDataSource dataSource, int tasks, int threads, boolean journal,
                                 int tasksPerTransaction) throws Exception {
        reset(dataSource, tasks);
        AtomicLong handled = new AtomicLong();
        long start = System.nanoTime();
        try (TaskQueueWorker worker = TaskQueueWorker.builder(dataSource)
                .consumer("bench-" + journal)
                .queues(QUEUE)
                .handler("noop", (task, transaction) -> handled.incrementAndGet())
                .concurrency(threads)
                .batchSize(Math.min(500, Math.max(10, threads * tasksPerTransaction)))
                .tasksPerTransaction(tasksPerTransaction)
                .pollInterval(Duration.ofMillis(5))
                .journal(journal)
                .build()) {
            worker.start();
            while (remaining(dataSource) > 0) {
                Thread.sleep(20);
            }
        }
        long nanos = System.nanoTime() - start;
        return tasks / (nanos / 1e9);
    }

    private static double rawLoop(HikariDataSource dataSource, int tasks, int threads) throws Exception {
        reset(dataSource, tasks);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long start = System.nanoTime();
        List<Future<Long>> done = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            done.add(pool.submit(() -> {
                long deleted = 0;
                try (Connection connection = dataSource.getConnection();
                     PreparedStatement claim = connection.prepareStatement("""
                             DELETE FROM onebeat_task WHERE id IN (
                                 SELECT id FROM onebeat_task WHERE queue = ? AND status = 'pending'
                                 ORDER BY available_at LIMIT 10 FOR UPDATE SKIP LOCKED)
                             RETURNING id
                             """)) {
                    claim.setString(1, QUEUE);
                    while (true) {
                        int rows = 0;
                        try (ResultSet claimed = claim.executeQuery()) {
                            while (claimed.next()) {
                                rows++;
                            }
                        }
                        if (rows == 0) {
                            return deleted;
                        }
                        deleted += rows;
                    }
                }
            }));
        }
        long total = 0;
        for (Future<Long> future : done) {
            total += future.get();
        }
        long nanos = System.nanoTime() - start;
        pool.shutdown();
        return total / (nanos / 1e9);
    }

    private static void reset(HikariDataSource dataSource, int tasks) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("TRUNCATE onebeat_task, onebeat_processed");
            statement.execute("""
                    INSERT INTO onebeat_task (idempotency_key, job_name, scheduled_at, task, queue, entity_type, entity_id,
                                              payload, available_at)
                    SELECT 'bench/2026-11-29T08:00:00Z/noop/item:' || g, 'bench', now(), 'noop', 'bench', 'item', g::text,
                           '{"args": [], "kwargs": {}}', now() - interval '1 second'
                    FROM generate_series(1, %d) g
                    """.formatted(tasks));
            statement.execute("VACUUM ANALYZE onebeat_task");
        }
    }

    private static long remaining(HikariDataSource dataSource) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT count(*) FROM onebeat_task WHERE status <> 'done'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @SuppressWarnings("deprecation") // the Liquibase facade is the short way for a benchmark
    private static void migrate(HikariDataSource dataSource) throws Exception {
        try (Connection connection = dataSource.getConnection()) {
            var database = DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(connection));
            new Liquibase("db/onebeat/changelog-master.xml", new ClassLoaderResourceAccessor(), database).update("");
        }
    }

    private static String serverVersion(HikariDataSource dataSource) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return "PostgreSQL " + connection.getMetaData().getDatabaseProductVersion();
        }
    }

    private static void execute(String url, String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static double best(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }

    private static int intArg(String[] args, String name, int fallback) {
        return Integer.parseInt(stringArg(args, name, String.valueOf(fallback)));
    }

    private static String stringArg(String[] args, String name, String fallback) {
        for (String arg : args) {
            if (arg.startsWith(name + "=")) {
                return arg.substring(name.length() + 1);
            }
        }
        return fallback;
    }
}
