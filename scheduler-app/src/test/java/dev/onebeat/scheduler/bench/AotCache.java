package dev.onebeat.scheduler.bench;

import dev.onebeat.testsupport.jvm.JavaLauncher;
import dev.onebeat.testsupport.jvm.JavaProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An AOT cache (JEP 483, made in one step by JEP 514) of the extracted packaged application, for a
 * JDK 24 or later, trained as a user would train it: a whole replica launched with
 * {@code -XX:AOTCacheOutput}, left running {@link #SETTLE} once healthy, then stopped with SIGTERM;
 * the JVM writes the cache as it exits. The cache holds the classes the training loaded and linked
 * (and the profiles it gathered), so the training runs the start the benchmark measures: a replica
 * storing the runtime jobs, on a training database of its own.
 *
 * <p>A JVM launched with {@code -XX:AOTCache} whose class path, JDK or files differ from the training's
 * prints {@code [error][aot]} lines and runs without the cache; {@link #rejected(Path)} finds them.
 */
final class AotCache {

    /** How long the trained replica runs once healthy, so that the cache covers its lifecycle's start. */
    static final Duration SETTLE = Duration.ofSeconds(5);
    private static final Pattern SPECIFICATION = Pattern.compile("java\\.specification\\.version = (\\d+)");
    private static final Pattern VERSION = Pattern.compile("\\bjava\\.version = (\\S+)");
    private static final Pattern REJECTED = Pattern.compile("\\[error\\s*]\\[aot");

    /** What training the cache took. */
    record Training(Path cache, long bytes, ReplicaProcesses.StartUp start, Duration stopAndWrite) {
    }

    /** Puts the runtime jobs into the training database once its tables exist. */
    @FunctionalInterface
    interface JobLoader {
        void load(BenchDatabase database) throws Exception;
    }

    private AotCache() {
    }

    /**
     * A JDK as its {@code java} describes itself.
     *
     * @param version {@code java.version}, such as {@code 25.0.3}
     * @param feature the feature release from {@code java.specification.version}, such as 25
     */
    record Jdk(Path java, String version, int feature) {

        /** @return whether the JDK can write and use an AOT cache ({@code -XX:AOTCacheOutput} came in 24) */
        boolean hasAotCache() {
            return feature >= 24;
        }

        /** @throws IllegalStateException if {@code java} cannot be run or does not say its version */
        static Jdk of(Path java) {
            try {
                Path settings = Files.createTempFile("java-settings-", ".txt");
                JavaProcess process = JavaLauncher.optionsOnly("java-version").java(java).plainJvm()
                        .jvmOptions("-XshowSettings:properties", "-version").log(settings).start();
                if (!process.waitFor(Duration.ofSeconds(30))) {
                    process.kill();
                }
                String output = Files.readString(settings, StandardCharsets.UTF_8);
                Files.delete(settings);
                Matcher feature = SPECIFICATION.matcher(output);
                Matcher version = VERSION.matcher(output);
                if (!feature.find() || !version.find()) {
                    throw new IllegalStateException(java + " printed no java.specification.version or java.version");
                }
                return new Jdk(java, version.group(1), Integer.parseInt(feature.group(1)));
            } catch (IOException | UncheckedIOException e) {
                throw new IllegalStateException("could not run " + java, e);
            }
        }
    }

    /**
     * Trains a cache into {@code cache} on a fresh training database (dropped afterwards): a first
     * start without the cache creates the tables, {@code jobs} loads the runtime jobs, then the
     * training replica stores them, runs {@link #SETTLE} and is stopped.
     *
     * @param plain how a replica is launched without the cache (the java, JVM options and jar the
     *        cache will be used with)
     * @throws IllegalStateException if the JVM wrote no cache
     */
    static Training train(ReplicaCommand plain, Path cache, String adminUrl, Path logDir, JobLoader jobs)
            throws Exception {
        try (BenchDatabase training = BenchDatabase.create(adminUrl);
             ReplicaProcesses tables = new ReplicaProcesses(training, logDir, plain);
             ReplicaProcesses trainer = new ReplicaProcesses(training, logDir,
                     plain.withOptions(List.of("-XX:AOTCacheOutput=" + cache)))) {
            tables.start("tables");
            tables.stop("tables");
            jobs.load(training);
            ReplicaProcesses.StartUp start = trainer.start("training");
            BenchDatabase.sleep(SETTLE);
            long stopping = System.nanoTime();
            trainer.stop("training");
            Duration stopAndWrite = Duration.ofNanos(System.nanoTime() - stopping);
            if (!Files.isRegularFile(cache)) {
                throw new IllegalStateException("the training JVM wrote no AOT cache " + cache + ", see "
                        + trainer.logs().get(trainer.logs().size() - 1));
            }
            return new Training(cache, Files.size(cache), start, stopAndWrite);
        }
    }

    /** @return whether the JVM that wrote {@code log} said it could not use its AOT cache */
    static boolean rejected(Path log) {
        try {
            return REJECTED.matcher(Files.readString(log)).find();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
