package dev.onebeat.scheduler.bench;

import dev.onebeat.testsupport.jvm.JavaLauncher;
import dev.onebeat.testsupport.jvm.JavaProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Cold starts of the packaged application, launched as a user launches it ({@code java -jar} of the
 * jar extracted with {@code -Djarmode=tools extract}), each in a new JVM: on an empty database, a
 * restart with no job (the floor), the first start storing N new runtime jobs and restarts with
 * them, timed from the launch until {@code /actuator/health} answers UP, beside Spring Boot's own
 * "Started … in". Variants, each on its own fresh database, taking turns at each step
 * ({@link StartUpSeries}): (a) the benchmark's own {@code java}; (l) the same with Liquibase run at
 * every start ({@code onebeat.startup.skip-applied-changelog=false}, as before that setting: the
 * same-run baseline of its skip); (b) a JDK 24 or later with an {@link AotCache} trained beforehand,
 * when one is found.
 * Run it with {@code bench/startup.sh}; see {@link StartUpOptions#USAGE}.
 *
 * <p>The jobs are {@link ListedJobs}: runtime jobs on some 720 schedules, none due during the run,
 * inserted in bulk into {@code onebeat_runtime_job} as if created through the admin API.
 */
public final class StartUpBenchmark {

    private static final Duration FIRST_START_TARGET = Duration.ofSeconds(10);
    private static final Duration RESTART_TARGET = Duration.ofSeconds(3);

    private final StartUpOptions options;
    private final Path logDir;
    private final Path work;
    private final StartUpSeries series;

    private StartUpBenchmark(StartUpOptions options, Path logDir, Path work) {
        this.options = options;
        this.logDir = logDir;
        this.work = work;
        this.series = new StartUpSeries(options.adminUrl(), options.rounds(), options.jobs(), this::loadJobs);
    }

    public static void main(String[] args) throws Exception {
        StartUpOptions options = BenchOptions.parseOrExit(args, StartUpOptions.USAGE, StartUpOptions::parse);
        if (options == null) {
            return;
        }
        Path logDir = Path.of("target", "startup-bench", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString()
                .replace(":", ""));
        Path work = Files.createTempDirectory("onebeat-startup-");
        try {
            new StartUpBenchmark(options, logDir, work).run();
        } finally {
            delete(work);
        }
        System.exit(0);
    }

    private void run() throws Exception {
        try (BenchDatabase probe = BenchDatabase.create(options.adminUrl())) {
            System.out.printf(Locale.ROOT, "start-up benchmark %s%n  server: %s%n  settings: %s%n  machine: %d cores,"
                            + " load average %.2f at start%n  jar: %s (%,d MB); replica JVM options: %s%n"
                            + "  %,d runtime jobs; %d rounds of each restart%n",
                    Instant.now().truncatedTo(ChronoUnit.SECONDS), probe.serverVersion(), probe.settings(),
                    Runtime.getRuntime().availableProcessors(), loadAverage(), options.jar().toAbsolutePath(),
                    Files.size(options.jar()) >> 20, options.jvmOptions().isEmpty() ? "none" : options.jvmOptions(),
                    options.jobs(), options.rounds());
        }
        Path jar = extract();
        AotCache.Jdk running = AotCache.Jdk.of(Path.of(System.getProperty("java.home"), "bin", "java"));
        String labelA = "a: Java " + running.version() + ", java -jar";
        System.out.printf(Locale.ROOT, "%n%s (%s)%n", labelA, running.java());
        List<StartUpSeries.Variant> variants = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        ReplicaCommand plainJar = ReplicaCommand.packagedJar(running.java(), jar, options.jvmOptions());
        variants.add(new StartUpSeries.Variant("a", plainJar, logDir.resolve("a"), log -> null));
        labels.add(labelA);
        // the same-run baseline of the applied-changelog skip: Liquibase at every start, as before it
        variants.add(new StartUpSeries.Variant("l", plainJar.withOptions(
                List.of("-Donebeat.startup.skip-applied-changelog=false")), logDir.resolve("l"), log -> null));
        labels.add("l: as a, Liquibase run at every start");
        String labelB = "b: JDK 24+ with an AOT cache";
        AotCache.Jdk aot = options.aotJava() == null ? null : AotCache.Jdk.of(options.aotJava());
        if (aot == null) {
            System.out.printf(Locale.ROOT, "%s: skipped: no JDK 24+ (none given, %s absent, or --no-aot)%n", labelB,
                    StartUpOptions.DEFAULT_AOT_JAVA);
        } else if (!aot.hasAotCache()) {
            System.out.printf(Locale.ROOT, "%s: skipped: no JDK 24+ (%s is Java %s)%n", labelB, aot.java(), aot.version());
        } else {
            labelB = "b: Java " + aot.version() + ", java -jar with an AOT cache";
            variants.add(withAotCache(aot, jar, labelB));
            labels.add(labelB);
        }
        System.out.printf(Locale.ROOT, "%nthe variants in turn; load average %.2f%n", loadAverage());
        printSummary(labels, series.measure(variants));
    }

    /** Trains the AOT cache; @return the variant that runs with it */
    private StartUpSeries.Variant withAotCache(AotCache.Jdk aot, Path jar, String label) throws Exception {
        System.out.printf(Locale.ROOT, "%s (%s); load average %.2f%n", label, aot.java(), loadAverage());
        ReplicaCommand plain = ReplicaCommand.packagedJar(aot.java(), jar, options.jvmOptions());
        long training = System.nanoTime();
        AotCache.Training cache = AotCache.train(plain, work.resolve("onebeat.aot"), options.adminUrl(),
                logDir.resolve("b-training"), this::loadJobs);
        System.out.printf(Locale.ROOT, "  training (a database of its own, tables created, %,d jobs inserted, a replica"
                        + " with -XX:AOTCacheOutput storing them, healthy in %s s, run %d s more, SIGTERM): %.1f s in all;"
                        + " stop and cache written in %s s; cache %,d MB%n", options.jobs(),
                StartUpSeries.seconds(cache.start().wall()), AotCache.SETTLE.toSeconds(),
                (System.nanoTime() - training) / 1e9, StartUpSeries.seconds(cache.stopAndWrite()), cache.bytes() >> 20);
        Function<Path, String> refused = log -> AotCache.rejected(log)
                ? "the JVM refused the AOT cache and ran without it, see " + log : null;
        return new StartUpSeries.Variant("b", plain.withOptions(List.of("-XX:AOTCache=" + cache.cache())),
                logDir.resolve("b"), refused);
    }

    private void printSummary(List<String> labels, List<StartUpSeries.Figures> figures) {
        System.out.printf(Locale.ROOT, "%nsummary: wall time from launch until /actuator/health is UP; in brackets Spring"
                        + " Boot's \"Started … in\" (wall clock) and \"process running for\" (the JVM's uptime);"
                        + " restarts: p50 / max of %d, Spring Boot's p50; load average %.2f at the end%n",
                options.rounds(), loadAverage());
        System.out.printf("| start | target | %s |%n|---|---|%s%n", String.join(" | ", labels),
                "---|".repeat(labels.size()));
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"empty database (Liquibase creates the tables)", ""});
        rows.add(new String[] {"restart with no job (the floor)", ""});
        rows.add(new String[] {String.format(Locale.ROOT, "first start storing %,d new jobs", options.jobs()),
                "≤ " + FIRST_START_TARGET.toSeconds() + " s"});
        rows.add(new String[] {String.format(Locale.ROOT, "restart with the %,d jobs", options.jobs()),
                "≤ " + RESTART_TARGET.toSeconds() + " s"});
        rows.add(new String[] {"the jobs' share of a restart (p50 with − p50 without)", ""});
        for (int row = 0; row < rows.size(); row++) {
            List<String> cells = new ArrayList<>();
            for (StartUpSeries.Figures each : figures) {
                cells.add(cell(each, row));
            }
            System.out.printf("| %s | %s | %s |%n", rows.get(row)[0], rows.get(row)[1], String.join(" | ", cells));
        }
        for (int i = 0; i < labels.size(); i++) {
            System.out.println(verdict(labels.get(i), figures.get(i)));
        }
    }

    private static String cell(StartUpSeries.Figures figures, int row) {
        return switch (row) {
            case 0 -> brief(List.of(figures.empty()));
            case 1 -> brief(figures.noJob());
            case 2 -> brief(List.of(figures.first()));
            case 3 -> brief(figures.withJobs());
            default -> StartUpSeries.seconds(figures.jobsShare()) + " s";
        };
    }

    private static String brief(List<ReplicaProcesses.StartUp> starts) {
        return StartUpSeries.Summary.of(starts).describe();
    }

    private static String verdict(String label, StartUpSeries.Figures figures) {
        Duration first = figures.first().wall();
        Duration restart = StartUpSeries.Summary.of(figures.withJobs()).wall().median();
        return String.format(Locale.ROOT, "%s: first start ≤ %d s %s (%s s); restart ≤ %d s %s (p50 %s s; with no job"
                        + " p50 %s s)", label.substring(0, 1), FIRST_START_TARGET.toSeconds(),
                first.compareTo(FIRST_START_TARGET) <= 0 ? "met" : "not met", StartUpSeries.seconds(first),
                RESTART_TARGET.toSeconds(), restart.compareTo(RESTART_TARGET) <= 0 ? "met" : "not met",
                StartUpSeries.seconds(restart),
                StartUpSeries.seconds(StartUpSeries.Summary.of(figures.noJob()).wall().median()));
    }

    /** Inserts the runtime jobs and analyzes the database, as autovacuum would soon after. */
    private void loadJobs(BenchDatabase database) throws Exception {
        try (var connection = database.connect()) {
            new ListedJobs(options.jobs()).insert(connection);
        }
        StartUpSeries.analyze(database);
    }

    /** Extracts the packaged jar as its documentation tells users to, once; @return the launcher jar */
    private Path extract() throws IOException, InterruptedException {
        Path destination = work.resolve("app");
        long start = System.nanoTime();
        Path log = work.resolve("extract.log");
        JavaProcess process = JavaLauncher.jar("extract", options.jar()).plainJvm()
                .systemProperty("jarmode", "tools")
                .arguments("extract", "--destination", destination.toString())
                .log(log)
                .start();
        Path launcher = destination.resolve(options.jar().getFileName());
        if (process.process().waitFor() != 0 || !Files.isRegularFile(launcher)) {
            throw new IllegalStateException("could not extract " + options.jar() + ": " + Files.readString(log));
        }
        System.out.printf(Locale.ROOT, "  extracted with java -Djarmode=tools -jar %s extract --destination <tmp>"
                + " in %.1f s%n", options.jar().getFileName(), (System.nanoTime() - start) / 1e9);
        return launcher;
    }

    private static void delete(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not delete " + directory, e);
        }
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
