package dev.onebeat.testsupport.jvm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One line per child JVM started, so that a suite's JVM starts can be counted ({@code wc -l}) and named: the file
 * given by {@value #PROPERTY}, else {@code target/child-jvms.log} under the working directory (the module's
 * directory when Maven runs the tests). Two test JVMs write at once: each line is one {@code O_APPEND} write.
 */
final class StartLog {

    /** The system property naming the file. */
    static final String PROPERTY = "onebeat.child-jvms.log";
    private static final Logger LOG = LoggerFactory.getLogger(StartLog.class);

    private StartLog() {
    }

    static Path file() {
        String configured = System.getProperty(PROPERTY);
        return configured == null || configured.isBlank() ? Path.of("target", "child-jvms.log") : Path.of(configured);
    }

    /** Appends {@code <time> name=<name> main=<main class or jar> pid=<pid> parent=<test JVM pid>}. */
    static void record(String name, String main, long pid) {
        String line = Instant.now() + " name=" + name + " main=" + main + " pid=" + pid + " parent="
                + ProcessHandle.current().pid() + "\n";
        Path file = file();
        try {
            Path folder = file.toAbsolutePath().getParent();
            if (folder != null) {
                Files.createDirectories(folder);
            }
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND)) {
                channel.write(ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8)));
            }
        } catch (IOException e) {
            // counting is for the record: a start it cannot write down is still a start
            LOG.warn("could not record a child JVM start file={} name={}", file, name, e);
        }
    }
}
