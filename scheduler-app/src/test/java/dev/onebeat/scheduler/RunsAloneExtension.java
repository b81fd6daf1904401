package dev.onebeat.scheduler;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs {@link RunsAlone} classes one at a time across the build's test JVMs: an exclusive lock on
 * {@code target/runs-alone.lock} (the test JVMs' working directory is the module's), taken before the class and
 * released after it. An operating-system lock, so a test JVM that dies releases it with its process. A class that
 * waited says for how long on standard output (its {@code -output.txt} report).
 */
public final class RunsAloneExtension implements BeforeAllCallback, AfterAllCallback {

    static final Path LOCK_FILE = Path.of("target", "runs-alone.lock");

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RunsAloneExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        Files.createDirectories(LOCK_FILE.getParent());
        FileChannel channel = FileChannel.open(LOCK_FILE, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        long start = System.nanoTime();
        FileLock lock;
        try {
            lock = channel.lock();
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        Duration waited = Duration.ofNanos(System.nanoTime() - start);
        if (waited.toMillis() >= 100) {
            System.out.printf("%s waited %d ms for another @RunsAlone class%n", context.getDisplayName(),
                    waited.toMillis());
        }
        context.getStore(NAMESPACE).put(FileLock.class, lock);
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        FileLock lock = context.getStore(NAMESPACE).remove(FileLock.class, FileLock.class);
        if (lock != null) {
            try (FileChannel channel = lock.channel()) {
                lock.release();
            }
        }
    }
}
