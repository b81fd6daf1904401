package dev.onebeat.testsupport.jvm;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Application class-data sharing (AppCDS) for child JVMs that start on the same class path again and again, such as
 * the scheduler replicas of the multi-process tests: the classes the first one loaded are mapped from an archive by
 * every later one instead of being read, parsed and verified again. The suite is bound by CPU on 2 cores, and a
 * replica's start was most of a multi-replica test's time. Measured on one replica ({@code ReplicaMain}, JDK 17,
 * fast-start options, an idle 2-core machine), from launch to Spring Boot's "Started": 7.7 to 8.2 s of CPU without an
 * archive, 5.0 to 5.5 s with one (about a third less).
 *
 * <p>How. A JDK 17 archive covers classes from jar files only (it refuses a class path holding a non-empty folder), so
 * each folder on the class path ({@code target/classes}, {@code target/test-classes}) is first copied into a jar at the
 * same place in the path: which copy of a class or resource wins is unchanged. The first JVM on a class path runs
 * without an archive and lists the classes it loads ({@code -XX:DumpLoadedClassList}); once its log shows the line
 * that says it is ready, the test JVM dumps the listed classes into an archive ({@code java -Xshare:dump}), one at a
 * time across the test JVMs of a build. Every later JVM on that class path maps the archive. An archive that does
 * not match after all (another JDK, a jar rebuilt under it) is ignored by the JVM, which then loads its classes as
 * usual ({@code -Xshare:auto}); sharing changes how fast classes load, never which classes or what they do.
 *
 * <p>Archives and jars live under {@value #PROPERTY} ({@code target/class-archives} of the working directory by
 * default, so {@code mvn clean} removes them); {@code -D}{@value #PROPERTY}{@code =off} turns sharing off. They are
 * named after a digest of what they are valid for: the JDK, the JVM options that change the archive, and every
 * class-path entry (a folder by the names, sizes and times of its files), so a rebuilt class makes new ones.
 */
final class ClassArchives {

    /** The system property naming the folder of archives, or {@code off}. */
    static final String PROPERTY = "onebeat.class-archives";
    private static final Logger LOG = LoggerFactory.getLogger(ClassArchives.class);
    private static final Duration READY_WAIT = Duration.ofMinutes(5);
    private static final Duration DUMP_WAIT = Duration.ofMinutes(5);
    private static final Duration POLL = Duration.ofMillis(500);
    /** Archives a child of this test JVM trains or has trained: one attempt at a time per archive and test JVM. */
    private static final Map<Path, Boolean> ATTEMPTED = new ConcurrentHashMap<>();
    /** Dumps that failed in this test JVM; after a few, its children stop training archives. */
    private static final AtomicInteger FAILED_DUMPS = new AtomicInteger();
    private static final int MAX_FAILED_DUMPS = 2;

    private final Path folder;

    private ClassArchives(Path folder) {
        this.folder = folder;
    }

    /** @return the archives of this build, or {@code null} when sharing is {@code off} */
    static ClassArchives configured() {
        String configured = System.getProperty(PROPERTY);
        if ("off".equalsIgnoreCase(configured)) {
            return null;
        }
        return new ClassArchives(Path.of(configured == null || configured.isBlank()
                ? "target/class-archives" : configured).toAbsolutePath());
    }

    /**
     * A class path ready to be archived, and what the child starting on it does about the archive.
     *
     * @param java the {@code java} the child and the dump run
     * @param classPath the class path with its folders replaced by jars
     * @param archive the archive of that class path
     * @param archiveOptions the JVM options the archive is made with
     * @param options what the child gets: the option mapping the archive if it exists; else, for the one child per
     *     test JVM that trains it, the option listing the classes it loads; else none
     */
    record Shared(Path java, String classPath, Path archive, List<String> archiveOptions, List<String> options) {

        /** @return whether the child lists the classes it loads for the archive */
        boolean training() {
            return !options.isEmpty() && options.get(0).startsWith("-XX:DumpLoadedClassList=");
        }

        Path classList() {
            return Path.of(options.get(0).substring(options.get(0).indexOf('=') + 1));
        }
    }

    /**
     * @param java the {@code java} the child runs
     * @param classPath the class path the child is to run on
     * @param archiveOptions the child's JVM options that make a different archive (the collector, the heap's size)
     * @return the class path with each folder replaced by a jar of its content, and the archive it takes; {@code null}
     *     if that could not be prepared (logged): the child then starts as it would without sharing
     */
    Shared share(Path java, String classPath, List<String> archiveOptions) {
        // one thread of this JVM at a time: a second FileLock on the same file from this JVM would throw
        synchronized (ClassArchives.class) {
            try {
                return prepare(java, classPath, archiveOptions);
            } catch (IOException | RuntimeException e) {
                LOG.warn("no class-data sharing for a child on this class path, it loads its classes itself: {}",
                        e.toString());
                return null;
            }
        }
    }

    private Shared prepare(Path java, String classPath, List<String> archiveOptions) throws IOException {
        Files.createDirectories(folder);
        List<String> entries = new ArrayList<>();
        StringBuilder key = new StringBuilder()
                .append(java).append('\n')
                .append(System.getProperty("java.vm.version")).append('\n')
                .append(String.join(" ", archiveOptions)).append('\n');
        for (String entry : classPath.split(File.pathSeparator)) {
            Path path = Path.of(entry);
            String shared = Files.isDirectory(path) ? jarOf(path).toString() : entry;
            File file = new File(shared);
            entries.add(shared);
            key.append(shared).append(' ').append(file.length()).append(' ').append(file.lastModified())
                    .append('\n');
        }
        Path archive = folder.resolve("classes-" + digest(key.toString()) + ".jsa");
        List<String> options;
        if (Files.isRegularFile(archive)) {
            options = List.of("-XX:SharedArchiveFile=" + archive);
        } else if (ATTEMPTED.putIfAbsent(archive, true) == null) {
            options = List.of("-XX:DumpLoadedClassList=" + folder.resolve(archive.getFileName() + "."
                    + ProcessHandle.current().pid() + "-" + System.nanoTime() + ".classlist"));
        } else {
            options = List.of();
        }
        return new Shared(java, String.join(File.pathSeparator, entries), archive, archiveOptions, options);
    }

    /**
     * For a {@link Shared#training() training} child: once it logs {@code readyLine}, writes the archive of the classes
     * it has loaded so far, unless another test JVM has written it or is writing it. The archive is dumped by a JVM
     * this test JVM starts ({@code java -Xshare:dump}), so a test that stops the child meanwhile does not stop the
     * dump. Returns at once; the work runs on a daemon thread.
     */
    void dumpWhenReady(Shared shared, JavaProcess child, String readyLine) {
        Thread dumper = new Thread(() -> dump(shared, child, readyLine), "class-archive-" + child.name());
        dumper.setDaemon(true);
        dumper.start();
    }

    private void dump(Shared shared, JavaProcess child, String readyLine) {
        Path archive = shared.archive();
        Path classList = shared.classList();
        Path listed = folder.resolve(classList.getFileName() + ".ready");
        boolean written = false;
        long deadline = System.nanoTime() + READY_WAIT.toNanos();
        try {
            // alive when its ready line is seen: a restarted child of the same name writes the same log
            while (!(child.isAlive() && child.logged(readyLine))) {
                if (!child.isAlive() || System.nanoTime() > deadline) {
                    return;
                }
                Thread.sleep(POLL.toMillis());
            }
            copyWholeLines(classList, listed);
            try (FileChannel channel = FileChannel.open(folder.resolve(archive.getFileName() + ".lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE); FileLock lock = channel.tryLock()) {
                if (lock == null || Files.isRegularFile(archive)) {
                    written = true; // another test JVM writes it, or has written it
                    return;
                }
                written = runDump(shared, listed, child);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            // sharing only makes starts faster: without an archive every child loads its classes itself
            LOG.warn("no class-data archive from the classes of {}", child, e);
        } finally {
            deleteQuietly(listed);
            deleteQuietly(classList);
            if (!written && FAILED_DUMPS.incrementAndGet() <= MAX_FAILED_DUMPS) {
                ATTEMPTED.remove(archive); // the next child trains it
            }
        }
    }

    /** Runs {@code java -Xshare:dump}; a test JVM exiting meanwhile stops it and leaves no partial archive. */
    private boolean runDump(Shared shared, Path listed, JavaProcess child) throws IOException, InterruptedException {
        Path archive = shared.archive();
        Path partial = folder.resolve(archive.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        List<String> command = new ArrayList<>(List.of(shared.java().toString()));
        command.addAll(shared.archiveOptions());
        command.addAll(List.of("-Xshare:dump", "-XX:SharedClassListFile=" + listed,
                "-XX:SharedArchiveFile=" + partial, "-cp", shared.classPath()));
        Path log = folder.resolve(archive.getFileName() + ".dump.log");
        Process dumping = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Thread cleanUp = new Thread(() -> {
            dumping.destroyForcibly();
            deleteQuietly(partial);
        }, "class-archive-clean-up");
        Runtime.getRuntime().addShutdownHook(cleanUp);
        try {
            if (!dumping.waitFor(DUMP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                dumping.destroyForcibly().waitFor();
            }
            if (dumping.exitValue() == 0 && Files.isRegularFile(partial) && Files.size(partial) > 0) {
                Files.move(partial, archive, StandardCopyOption.ATOMIC_MOVE);
                LOG.info("class-data archive written archive={} classes-of={}", archive, child);
                prune(shared);
                return true;
            }
            LOG.warn("no class-data archive from the classes of {}: see {}", child, log);
            return false;
        } finally {
            deleteQuietly(partial);
            try {
                Runtime.getRuntime().removeShutdownHook(cleanUp);
            } catch (IllegalStateException exiting) {
                // the hook runs anyway
            }
        }
    }

    /**
     * Copies the class list up to its last complete line: the child still writes it, and {@code -Xshare:dump} refuses
     * a list that ends in a cut line.
     */
    private static void copyWholeLines(Path from, Path to) throws IOException {
        byte[] bytes = Files.readAllBytes(from);
        int end = bytes.length;
        while (end > 0 && bytes[end - 1] != '\n') {
            end--;
        }
        Files.write(to, java.util.Arrays.copyOf(bytes, end));
    }

    /**
     * Deletes what earlier builds left: archives and jars of other contents, and partial files an hour old (a test JVM
     * that died mid-dump). The archive and the jars of {@code current} stay.
     */
    private void prune(Shared current) throws IOException {
        Set<String> kept = new HashSet<>();
        kept.add(current.archive().getFileName().toString());
        for (String entry : current.classPath().split(File.pathSeparator)) {
            kept.add(Path.of(entry).getFileName().toString());
        }
        long hourAgo = System.currentTimeMillis() - TimeUnit.HOURS.toMillis(1);
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = file.getFileName().toString();
                boolean stale = (name.endsWith(".jsa") || name.endsWith(".jar")) && !kept.contains(name);
                boolean leftOver = (name.endsWith(".tmp") || name.endsWith(".classlist") || name.endsWith(".ready"))
                        && Files.getLastModifiedTime(file).toMillis() < hourAgo;
                if (stale || leftOver) {
                    deleteQuietly(file);
                }
            }
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.debug("could not delete {}", file, e);
        }
    }

    /** A jar of {@code directory}'s files, made once per content and shared by the test JVMs of a build. */
    private Path jarOf(Path directory) throws IOException {
        Map<String, Path> files = new TreeMap<>();
        StringBuilder listing = new StringBuilder(directory.toAbsolutePath().toString()).append('\n');
        Files.walkFileTree(directory, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path subfolder, BasicFileAttributes attributes) {
                if (!subfolder.equals(directory)) {
                    // a folder entry of its own, as the jar tool writes: classpath:/templates/ and package scans
                    // look a folder up by name
                    String name = directory.relativize(subfolder).toString().replace(File.separatorChar, '/') + "/";
                    files.put(name, subfolder);
                    listing.append(name).append('\n');
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                String name = directory.relativize(file).toString().replace(File.separatorChar, '/');
                files.put(name, file);
                listing.append(name).append(' ').append(attributes.size()).append(' ')
                        .append(attributes.lastModifiedTime().toMillis()).append('\n');
                return FileVisitResult.CONTINUE;
            }
        });
        Path jar = folder.resolve(directory.getFileName() + "-" + digest(listing.toString()) + ".jar");
        if (Files.isRegularFile(jar)) {
            return jar;
        }
        // under a lock across the test JVMs: a jar replaced under an archive would no longer match it
        try (FileChannel channel = FileChannel.open(folder.resolve("jars.lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock lock = channel.lock()) {
            if (!Files.isRegularFile(jar)) {
                writeJar(files, jar);
            }
        }
        return jar;
    }

    private void writeJar(Map<String, Path> files, Path jar) throws IOException {
        Path partial = folder.resolve(jar.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        try (OutputStream out = Files.newOutputStream(partial); JarOutputStream jarOut = new JarOutputStream(out)) {
            for (Map.Entry<String, Path> file : files.entrySet()) {
                JarEntry entry = new JarEntry(file.getKey());
                entry.setTime(Files.getLastModifiedTime(file.getValue()).toMillis());
                jarOut.putNextEntry(entry);
                if (!file.getKey().endsWith("/")) {
                    Files.copy(file.getValue(), jarOut);
                }
                jarOut.closeEntry();
            }
        }
        Files.move(partial, jar, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String digest(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)), 0, 10);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }
}
