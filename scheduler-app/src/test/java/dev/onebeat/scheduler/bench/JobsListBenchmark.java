package dev.onebeat.scheduler.bench;

import dev.onebeat.scheduler.SecurityTestUsers;
import dev.onebeat.scheduler.operate.admin.JobDirectory;
import dev.onebeat.scheduler.operate.admin.RuntimeJobs;
import dev.onebeat.scheduler.engine.cluster.DatabaseIncarnation;
import dev.onebeat.scheduler.engine.cluster.DatabaseServerChanged;
import dev.onebeat.scheduler.engine.registry.JobCatalog;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.JobsProperties;
import dev.onebeat.scheduler.engine.registry.RuntimeJobStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.management.ManagementFactory;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Lists and searches 10,000 jobs through the admin API and the console of one replica, over HTTP,
 * and prints the median, p95 and p99 time of each request, the replica's start-up time with the
 * jobs, its heap after GC, and where a listing's time goes inside the replica. Run it with
 * {@code bench/jobs.sh}; see {@link JobsListOptions#USAGE}.
 *
 * <p>The jobs are runtime jobs ({@link ListedJobs}), inserted into {@code onebeat_runtime_job} in
 * bulk, so that the replica's start-up stores their Quartz jobs and triggers as it would after they
 * were created one by one through the API. The client runs in the replica's JVM.
 */
public final class JobsListBenchmark {

    private static final int VIEWS = 1000;
    private static final int CHANGES = 5;
    private static final Pattern TOTAL = Pattern.compile("\"total\":(\\d+)");

    private final JobsListOptions options;
    private final BenchDatabase database;
    private final ListedJobs jobs;
    private final String token = "bench-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());

    private JobsListBenchmark(JobsListOptions options, BenchDatabase database) {
        this.options = options;
        this.database = database;
        this.jobs = new ListedJobs(options.jobs());
    }

    public static void main(String[] args) throws Exception {
        JobsListOptions options = BenchOptions.parseOrExit(args, JobsListOptions.USAGE, JobsListOptions::parse);
        if (options == null) {
            return;
        }
        try (BenchDatabase database = BenchDatabase.create(options.adminUrl())) {
            new JobsListBenchmark(options, database).run();
        }
    }

    private void run() throws Exception {
        System.out.printf(Locale.ROOT, "job listing benchmark %s%n  server: %s%n  settings: %s%n  client and replica: %d cores,"
                        + " Java %s, max heap %d MB, load average %.2f at start%n  database %s; %,d runtime jobs;"
                        + " %d warm-up + %d measured rounds of %d requests%n",
                Instant.now().truncatedTo(ChronoUnit.SECONDS), database.serverVersion(), database.settings(),
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
                Runtime.getRuntime().maxMemory() >> 20, loadAverage(), database.name(), options.jobs(),
                options.warmups(), options.rounds(), requests(new Random()).size());
        long emptyStart = System.nanoTime();
        long emptyHeap;
        try (OnebeatInstance empty = serve()) {
            System.out.printf(Locale.ROOT, "start-up, empty database (Liquibase creates the tables): %.1f s%n",
                    seconds(emptyStart));
            emptyHeap = heapAfterGc();
        }
        long insertStart = System.nanoTime();
        try (Connection connection = database.connect()) {
            jobs.insert(connection);
        }
        System.out.printf(Locale.ROOT, "%,d rows inserted into onebeat_runtime_job in %.1f s%n", options.jobs(),
                seconds(insertStart));
        long loadedStart = System.nanoTime();
        try (OnebeatInstance replica = serve()) {
            requireQuartzJobs(replica);
            System.out.printf(Locale.ROOT, "start-up with %,d runtime jobs, storing each one's Quartz job and trigger:"
                    + " %.1f s; load average %.2f%n", options.jobs(), seconds(loadedStart), loadAverage());
            // in the first replica: after it, this JVM still held its registry, and the heap doubled
            long loadedHeap = heapAfterGc();
            System.out.printf(Locale.ROOT, "heap used after GC: %.1f MB without jobs, %.1f MB with %,d jobs"
                    + " (+%.1f MB)%n", emptyHeap / 1e6, loadedHeap / 1e6, options.jobs(),
                    (loadedHeap - emptyHeap) / 1e6);
        }
        // between the two starts, with no replica running: a whole database's VACUUM beside a replica's statements
        // (unthrottled, unlike autovacuum's) held them past the pool's socket timeout at a million jobs
        analyze();
        Map<String, Latencies> http;
        List<Latencies> stages;
        long againStart = System.nanoTime();
        try (OnebeatInstance replica = serve()) {
            System.out.printf(Locale.ROOT, "restart with the same %,d jobs (every schedule unchanged): %.1f s%n",
                    options.jobs(), seconds(againStart));
            http = measureHttp(new BearerClient(replica.port(), token));
            System.out.printf(Locale.ROOT, "HTTP measured; load average %.2f%n", loadAverage());
            stages = new DirectoryStages(replica, jobs, options.jobs())
                    .measure(options.breakdownRounds(), options.breakdownRounds());
            commitsPerView(replica);
            changeCosts(replica);
            lostFiresLook(replica);
            if (options.lostJobs() > 0) {
                lostFiresHandedBack(replica);
            }
        }
        System.out.printf(Locale.ROOT, "fires recorded while measuring (must be 0): %d%n", fires());
        printTables(http, stages);
    }

    /**
     * Counts the transactions {@value #VIEWS} job views commit, less those an idle window as long
     * commits (Quartz's check-ins and trigger polls, the runtime job poll).
     */
    private void commitsPerView(OnebeatInstance replica) {
        CommitCounter commits = new CommitCounter(database);
        CommitCounter.Sessions sessions = replica.pooledSessions();
        JobDirectory directory = replica.bean(JobDirectory.class);
        Random random = new Random(3);
        long start = commits.settled(sessions);
        long viewsStart = System.nanoTime();
        for (int i = 0; i < VIEWS; i++) {
            directory.find(jobs.name(random.nextInt(options.jobs())));
        }
        long viewsNanos = System.nanoTime() - viewsStart;
        long afterViews = commits.settled(sessions);
        BenchDatabase.sleep(Duration.ofNanos(viewsNanos));
        long idle = commits.settled(sessions) - afterViews;
        System.out.printf(Locale.ROOT, "%d job views committed %d transactions in %.0f ms, %d in an idle window as"
                        + " long: %.2f commits per view%n", VIEWS, afterViews - start, viewsNanos / 1e6, idle,
                (afterViews - start - idle) / (double) VIEWS);
    }

    /**
     * What a change to one runtime job costs at this size, {@value #CHANGES} times: a job created through the admin
     * service (its Quartz trigger and this replica's reload of the runtime jobs included), and a change another
     * replica commits, by SQL as its admin service writes it, until it is in this replica's registry. This thread
     * reloads as soon as the change is committed; the replica's own poll may be reloading already, and then the time
     * runs until the reload that read the change ends.
     */
    private void changeCosts(OnebeatInstance replica) throws Exception {
        RuntimeJobs admin = replica.bean(RuntimeJobs.class);
        RuntimeJobStore store = replica.bean(RuntimeJobStore.class);
        JobRegistry registry = replica.bean(JobRegistry.class);
        List<Long> creates = new ArrayList<>();
        List<Long> reloads = new ArrayList<>();
        Random random = new Random(7);
        try (Connection connection = database.connect(); PreparedStatement change = connection.prepareStatement("""
                UPDATE onebeat_runtime_job SET definition = jsonb_set(definition, '{queue}', to_jsonb(?::text))
                WHERE name = ?""")) {
            for (int i = 0; i < CHANGES; i++) {
                String name = "bench-changed-" + i;
                long start = System.nanoTime();
                admin.create(JobsProperties.Definition.builder(name).every("30d").task("bench.changed").build());
                creates.add(System.nanoTime() - start);
                if (registry.find(name).isEmpty()) {
                    throw new IllegalStateException("created job " + name + " is not in the registry");
                }
                long generation = registry.generation();
                change.setString(1, "bench-changed-" + i);
                change.setString(2, jobs.name(random.nextInt(options.jobs())));
                change.executeUpdate();
                start = System.nanoTime();
                store.reload();
                while (registry.generation() == generation) {
                    store.reload();
                }
                reloads.add(System.nanoTime() - start);
            }
        }
        System.out.println(Latencies.header());
        System.out.println(new Latencies("one runtime job created through the admin service", creates).row());
        System.out.println(new Latencies("another replica's change to one runtime job, until in this registry",
                reloads).row());
    }

    /**
     * Times the replica's answer to a database server change (a failover, a restart): the sweep of stranded fire records
     * and the first look for lost fires over every job it registers, on the event's thread as the watch runs them. Last:
     * the looks it schedules for later are stopped with the replica.
     */
    private void lostFiresLook(OnebeatInstance replica) {
        long start = System.nanoTime();
        publishServerChange(replica);
        System.out.printf(Locale.ROOT, "a database server change, its stranded records' sweep and first look for lost "
                        + "fires over %,d jobs: %.1f s, %,.0f instants refired%n", options.jobs(), seconds(start),
                replica.bean(MeterRegistry.class).counter("onebeat.failover.refired").count());
    }

    /** Publishes a database server change inside the replica, which answers it on this thread. */
    private static void publishServerChange(OnebeatInstance replica) {
        Instant now = Instant.now();
        replica.publish(new DatabaseServerChanged(
                new DatabaseIncarnation("bench-before", 5432, now.minus(Duration.ofHours(1)), false),
                new DatabaseIncarnation("bench-after", 5432, now, false), now.minusSeconds(1)));
    }

    /**
     * Times a look that hands many instants back: {@code --lost-jobs} runtime jobs on one schedule, every 5 s, whose
     * trigger has passed the instants of their last half minute with nothing of them recorded, as a failover that lost
     * those commits leaves them. Their schedule's trigger is paused first, so that nothing fires them meanwhile; the
     * instants handed back are fired by the replica as they commit, and the benchmark waits until every one of them
     * has committed again (as a {@code recovery}). A probe beside it takes Quartz's trigger lock every
     * 20 ms, as a replica's trigger acquisition does, and reports its longest wait: while the lock is held, no replica
     * acquires a trigger.
     */
    private void lostFiresHandedBack(OnebeatInstance replica) throws Exception {
        int count = options.lostJobs();
        RuntimeJobs admin = replica.bean(RuntimeJobs.class);
        long created = System.nanoTime();
        for (int i = 0; i < count; i++) {
            // through the admin service: it stores the catalog row and the schedule's trigger, as an operator would
            admin.create(JobsProperties.Definition.builder(String.format(Locale.ROOT, "lost-%06d", i)).every("5s")
                    .task("bench.lost").build());
        }
        System.out.printf(Locale.ROOT, "%,d jobs every 5 s created through the admin service in %.1f s%n", count,
                seconds(created));
        try (Connection connection = database.connect()) {
            String key = awaitLostJobsStored(connection, count);
            replica.bean(org.quartz.Scheduler.class).pauseTrigger(
                    dev.onebeat.scheduler.engine.quartz.QuartzTriggers.scheduleTrigger(key));
            try (Statement statement = connection.createStatement()) {
                // what fired before the pause is lost too; the jobs joined, and their trigger began, 30 s earlier
                statement.executeUpdate("DELETE FROM onebeat_fire WHERE job_name LIKE 'lost-%'");
                statement.executeUpdate("DELETE FROM onebeat_fire_attempt WHERE job_name LIKE 'lost-%'");
                statement.executeUpdate("UPDATE onebeat_job SET member_since = member_since - interval '30 seconds' "
                        + "WHERE name LIKE 'lost-%'");
                statement.executeUpdate("UPDATE qrtz_triggers SET start_time = start_time - 30000 "
                        + "WHERE trigger_group = 'onebeat-schedule' AND trigger_name = '" + key + "'");
            }
        }
        double before = replica.bean(MeterRegistry.class).counter("onebeat.failover.refired").count();
        try (LockProbe probe = new LockProbe(); Connection connection = database.connect()) {
            long start = System.nanoTime();
            publishServerChange(replica);
            long handedBack = Math.round(replica.bean(MeterRegistry.class).counter("onebeat.failover.refired").count()
                    - before);
            System.out.printf(Locale.ROOT, "the first look after a database server change that lost the last half "
                            + "minute of %,d jobs: %.1f s, %,d instants handed back; the longest wait for Quartz's "
                            + "trigger lock beside it %.1f s%n", count, seconds(start), handedBack,
                    probe.longestWait().toMillis() / 1000.0);
            // then they fire: the time until the last of them has committed, counted from the look's beginning
            long committed = 0;
            long deadline = System.nanoTime() + Duration.ofMinutes(20).toNanos();
            while (System.nanoTime() < deadline) {
                try (Statement statement = connection.createStatement();
                     ResultSet row = statement.executeQuery("SELECT count(*) FROM onebeat_fire WHERE job_name LIKE "
                             + "'lost-%' AND trigger_kind = 'recovery'")) {
                    row.next();
                    committed = row.getLong(1);
                }
                if (committed >= handedBack) {
                    break;
                }
                BenchDatabase.sleep(Duration.ofMillis(200));
            }
            System.out.printf(Locale.ROOT, "the %,d instants handed back fired again: %,d committed as recoveries "
                            + "%.1f s after the look began%s; the longest wait for Quartz's trigger lock meanwhile %.1f s"
                            + "%n", handedBack, committed, seconds(start),
                    committed >= handedBack ? "" : " (not all: the benchmark stopped waiting after 20 minutes)",
                    probe.longestWait().toMillis() / 1000.0);
        }
    }

    /** @return the lost jobs' schedule key, once the replica's catalog holds every one of them */
    private static String awaitLostJobsStored(Connection connection, int count) throws SQLException {
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (System.nanoTime() < deadline) {
            try (Statement statement = connection.createStatement();
                 ResultSet row = statement.executeQuery("SELECT count(*), min(schedule_key), max(schedule_key) "
                         + "FROM onebeat_job WHERE name LIKE 'lost-%'")) {
                row.next();
                if (row.getInt(1) == count && row.getString(2).equals(row.getString(3))) {
                    return row.getString(2);
                }
            }
            BenchDatabase.sleep(Duration.ofMillis(100));
        }
        throw new IllegalStateException("the lost jobs were not in the catalog after 5 minutes");
    }

    /**
     * Takes Quartz's trigger lock every 20 ms, as a replica's trigger acquisition does, lets it go at once, and keeps
     * the longest it waited for it.
     */
    private final class LockProbe implements AutoCloseable {

        private final Thread thread;
        private volatile boolean running = true;
        private volatile long longestNanos;

        LockProbe() {
            thread = new Thread(this::probe, "bench-lock-probe");
            thread.setDaemon(true);
            thread.start();
        }

        private void probe() {
            try (Connection connection = database.connect();
                 Statement settings = connection.createStatement();
                 PreparedStatement select = connection.prepareStatement("SELECT lock_name FROM qrtz_locks "
                         + "WHERE sched_name = 'onebeat' AND lock_name = 'TRIGGER_ACCESS' FOR UPDATE")) {
                settings.execute("SET lock_timeout = '300s'");
                connection.setAutoCommit(false);
                while (running) {
                    long start = System.nanoTime();
                    select.executeQuery().close();
                    longestNanos = Math.max(longestNanos, System.nanoTime() - start);
                    connection.commit();
                    BenchDatabase.sleep(Duration.ofMillis(20));
                }
            } catch (SQLException e) {
                System.out.println("  lock probe failed: " + e);
            }
        }

        Duration longestWait() {
            return Duration.ofNanos(longestNanos);
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            thread.join();
        }
    }

    private OnebeatInstance serve() {
        return OnebeatInstance.serve(database, List.of(
                "--onebeat.security.tokens[0].name=bench",
                "--onebeat.security.tokens[0].token-sha256=" + SecurityTestUsers.sha256Hex(token),
                "--onebeat.security.tokens[0].role=viewer"));
    }

    /** The requests of one round, by label; names and queries drawn afresh each round. */
    private Map<String, String> requests(Random random) {
        String name = jobs.name(random.nextInt(options.jobs()));
        String query = encode(ListedJobs.onePercentQuery(random.nextInt(100)));
        Map<String, String> requests = new LinkedHashMap<>();
        requests.put("`GET /api/jobs` (page 0, size 50)", "/api/jobs?size=50");
        requests.put("`GET /api/jobs?q=…` (1 % of names)", "/api/jobs?size=50&q=" + query);
        requests.put("`GET /api/jobs?page=150` (size 50)", "/api/jobs?size=50&page=150");
        // the catalog's last page: an OFFSET past every other name
        requests.put("`GET /api/jobs?page=<last>` (size 50)", "/api/jobs?size=50&page=" + (options.jobs() - 1) / 50);
        // one job's number: a handful of names match, wherever they are in the name order
        requests.put("`GET /api/jobs?q=-<number>` (a few names)", "/api/jobs?size=50&q="
                + encode(String.format(Locale.ROOT, "-%05d", random.nextInt(options.jobs()))));
        requests.put("`GET /api/jobs/{name}`", "/api/jobs/" + encode(name));
        requests.put("`GET /ui/jobs`", "/ui/jobs");
        requests.put("`GET /ui/jobs?q=…` (1 % of names)", "/ui/jobs?q=" + query);
        requests.put("`GET /ui/jobs/{name}`", "/ui/jobs/" + encode(name));
        return requests;
    }

    /**
     * One request of each kind per round, the first kind rotating from round to round, so that every
     * kind meets the same load and none always follows the same other.
     */
    private Map<String, Latencies> measureHttp(BearerClient client) throws Exception {
        Random random = new Random(42);
        checkTotals(client);
        Map<String, List<Long>> times = new LinkedHashMap<>();
        for (int round = 0; round < options.warmups() + options.rounds(); round++) {
            List<Map.Entry<String, String>> requests = new ArrayList<>(requests(random).entrySet());
            for (int i = 0; i < requests.size(); i++) {
                Map.Entry<String, String> request = requests.get((round + i) % requests.size());
                long start = System.nanoTime();
                client.get(request.getValue());
                long elapsed = System.nanoTime() - start;
                if (round >= options.warmups()) {
                    times.computeIfAbsent(request.getKey(), label -> new ArrayList<>()).add(elapsed);
                }
            }
        }
        Map<String, Latencies> latencies = new LinkedHashMap<>();
        requests(random).keySet().forEach(label -> latencies.put(label, new Latencies(label, times.get(label))));
        return latencies;
    }

    /** Checks that the API sees every job and that a 1 % query matches 1 %, and prints the body sizes. */
    private void checkTotals(BearerClient client) throws Exception {
        String all = client.get("/api/jobs?size=50");
        String some = client.get("/api/jobs?size=50&q=" + encode(ListedJobs.onePercentQuery(0)));
        long allTotal = total(all);
        // the count stops at JobDirectory.COUNT_CAP, and says so
        long expected = Math.min(options.jobs(), JobDirectory.COUNT_CAP);
        if (allTotal != expected || all.contains("\"totalCapped\":true") != options.jobs() > JobDirectory.COUNT_CAP) {
            throw new IllegalStateException("GET /api/jobs counts " + allTotal + " jobs, expected " + expected
                    + (options.jobs() > JobDirectory.COUNT_CAP ? " and totalCapped" : ""));
        }
        System.out.printf(Locale.ROOT, "GET /api/jobs: total %d, %,d bytes; q=%s: total %d, %,d bytes;"
                        + " /ui/jobs: %,d bytes; /ui/jobs/%s: %,d bytes%n", allTotal, all.length(),
                ListedJobs.onePercentQuery(0), total(some), some.length(), client.get("/ui/jobs").length(),
                jobs.name(0), client.get("/ui/jobs/" + encode(jobs.name(0))).length());
    }

    private static long total(String body) {
        Matcher matcher = TOTAL.matcher(body);
        if (!matcher.find()) {
            throw new IllegalStateException("no total in " + body.substring(0, Math.min(200, body.length())));
        }
        return Long.parseLong(matcher.group(1));
    }

    private void requireQuartzJobs(OnebeatInstance replica) throws Exception {
        int stored = replica.bean(JobCatalog.class).names().size();
        if (stored != options.jobs()) {
            throw new IllegalStateException("the job catalog holds " + stored + " jobs, expected " + options.jobs());
        }
    }

    /** Brings the planner's statistics up to date, or says that they describe the empty tables. */
    private void analyze() throws Exception {
        if (!options.analyze()) {
            System.out.println("tables not analyzed (--no-analyze): with autovacuum off the planner still sees empty"
                    + " Quartz tables");
            return;
        }
        long start = System.nanoTime();
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            // VACUUM as well: it sets the visibility map, without which an index-only scan of the names reads the
            // table too (a search walking 90,000 names of a million took 200 ms instead of 28 ms)
            statement.execute("VACUUM ANALYZE");
        }
        System.out.printf(Locale.ROOT, "VACUUM ANALYZE of the database, as autovacuum would after the inserts: %.1f s%n",
                seconds(start));
    }

    private long fires() throws Exception {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT count(*) FROM onebeat_fire WHERE job_name NOT LIKE 'lost-%'")) {
            row.next();
            return row.getLong(1);
        }
    }

    private void printTables(Map<String, Latencies> http, List<Latencies> stages) {
        System.out.printf(Locale.ROOT, "%nover HTTP, %,d jobs, bearer token, one kept-alive connection:%n%s%n",
                options.jobs(), Latencies.header());
        http.values().forEach(latencies -> System.out.println(latencies.row()));
        System.out.printf(Locale.ROOT, "%ninside the replica, no HTTP (%d rounds in turn):%n%s%n",
                options.breakdownRounds(), Latencies.header().replace("request", "stage"));
        stages.forEach(latencies -> System.out.println(latencies.row()));
    }

    /** @return bytes of heap in use after a full collection, asked for twice */
    private static long heapAfterGc() {
        for (int i = 0; i < 2; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
