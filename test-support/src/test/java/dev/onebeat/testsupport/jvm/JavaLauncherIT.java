package dev.onebeat.testsupport.jvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JavaLauncherIT {

    private static final Duration START = Duration.ofMinutes(2);

    @TempDir
    Path dir;

    @Test
    void childGetsItsPropertiesVariablesArgumentsAndDirectoryAndItsExitStatusIsKept() {
        JavaProcess child = JavaLauncher.mainClass("echo", ChildMain.class)
                .systemProperty("child.property", "p1")
                .environment(Map.of("CHILD_VARIABLE", "v1"))
                .arguments("3", "second")
                .directory(dir)
                .log(dir.resolve("echo.log"))
                .start();

        assertThat(child.awaitExit(START)).isEqualTo(3);
        assertThat(child.lines()).contains("property=p1", "variable=v1", "inherited PATH=true",
                "directory=" + dir.toAbsolutePath(), "arguments=3,second");
    }

    @Test
    void everyChildStartsWithTheFastStartOptionsUnlessItIsAPlainJvm() {
        assertThat(JavaLauncher.mainClass("fast", ChildMain.class).command())
                .containsSubsequence(List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp"));
        assertThat(JavaLauncher.mainClass("bench", ChildMain.class).plainJvm().command())
                .doesNotContain("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
        assertThat(JavaLauncher.jar("jar", Path.of("app.jar")).prefix(List.of("faketime", "-f", "+2s")).command())
                .startsWith("faketime", "-f", "+2s").endsWith("-jar", "app.jar");
    }

    @Test
    void killIsASigkillThatRunsNoShutdownHook() {
        Path stopped = dir.resolve("killed-hook-ran");
        JavaProcess child = waiting("killed", stopped);

        assertThat(child.kill()).isEqualTo(137);
        assertThat(stopped).doesNotExist();
    }

    @Test
    void stopIsASigtermThatRunsTheShutdownHooks() {
        Path stopped = dir.resolve("stopped-hook-ran");
        JavaProcess child = waiting("stopped", stopped);

        assertThat(child.stop(START)).isTrue();
        assertThat(stopped).hasContent("stopped");
    }

    @Test
    void aCommandPrefixRunsTheJvmAndStopReachesTheJvmUnderIt() throws Exception {
        Path stopped = dir.resolve("prefixed-hook-ran");
        JavaProcess child = JavaLauncher.mainClass("prefixed", ChildMain.class)
                // a shell that forks the JVM and stays its parent, as faketime does
                .prefix(List.of("/bin/sh", "-c", "CHILD_VARIABLE=from-prefix \"$@\"; exit $?", "sh"))
                .arguments("wait", stopped.toString())
                .log(dir.resolve("prefixed.log"))
                .start();
        child.awaitLine("ready", START);

        assertThat(child.logged("variable=from-prefix")).isTrue();
        assertThat(child.process().descendants()).as("the JVM under the shell").hasSize(1);
        assertThat(child.stop(START)).isTrue();
        assertThat(stopped).hasContent("stopped");
    }

    @Test
    void aWaitThatTimesOutSaysWhatTheChildPrinted() {
        JavaProcess child = JavaLauncher.mainClass("exits", ChildMain.class).arguments("0").log(dir.resolve("exits.log"))
                .start();

        assertThatThrownBy(() -> child.awaitLine("never printed", START)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("exited with 0").hasMessageContaining("arguments=0");
    }

    @Test
    void everyStartIsOneLineOfTheStartLog() throws Exception {
        Path file = StartLog.file();
        long before = Files.exists(file) ? Files.readAllLines(file).size() : 0;

        JavaProcess child = JavaLauncher.mainClass("counted", ChildMain.class).arguments("0")
                .log(dir.resolve("counted.log")).start();
        child.awaitExit(START);

        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSizeGreaterThan((int) before);
        assertThat(lines).filteredOn(line -> line.contains(" pid=" + child.pid() + " ")).singleElement().asString()
                .contains("name=counted", "main=" + ChildMain.class.getName());
    }

    @Test
    void aChildOnAClassPathAnEarlierOneArchivedLoadsItsClassesFromTheArchive() throws Exception {
        String before = System.getProperty(ClassArchives.PROPERTY);
        System.setProperty(ClassArchives.PROPERTY, dir.resolve("archives").toString());
        try {
            JavaProcess first = sharing("first", dir.resolve("first-stopped"));
            first.awaitLine("ready", START);
            long deadline = System.nanoTime() + START.toNanos();
            while (archives().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertThat(archives()).as("the archive written once the first was ready").hasSize(1);
            first.stop(START);
            assertThat(first.logged(ChildMain.class.getName() + " source: file:" + dir.resolve("archives")))
                    .as("the first ran its classes from a jar of test-classes").isTrue();

            Path stopped = dir.resolve("second-stopped");
            JavaProcess second = sharing("second", stopped);
            second.awaitLine("ready", START);

            assertThat(second.logged(ChildMain.class.getName() + " source: shared objects file"))
                    .as("the second mapped its main class from the archive: %s", second.logTail(20)).isTrue();
            assertThat(second.logged("property=shared")).isTrue();
            assertThat(second.logged("folder resource=true")).as("folders of the jar found by name").isTrue();
            assertThat(second.stop(START)).isTrue();
            assertThat(stopped).hasContent("stopped");
            assertThat(archives()).as("no second archive").hasSize(1);
        } finally {
            if (before == null) {
                System.clearProperty(ClassArchives.PROPERTY);
            } else {
                System.setProperty(ClassArchives.PROPERTY, before);
            }
        }
    }

    @Test
    void aChildWhoseArchiveFolderCannotBeMadeStartsWithoutSharing() throws Exception {
        String before = System.getProperty(ClassArchives.PROPERTY);
        Path notAFolder = Files.writeString(dir.resolve("a-file"), "");
        System.setProperty(ClassArchives.PROPERTY, notAFolder.resolve("archives").toString());
        try {
            JavaProcess child = sharing("unshared", dir.resolve("unshared-stopped"));
            child.awaitLine("ready", START);

            Path testClasses = Path.of(ChildMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            assertThat(child.logged(ChildMain.class.getName() + " source: file:" + testClasses))
                    .as("loaded from the class path as it is: %s", child.logTail(20)).isTrue();
            assertThat(child.logged("folder resource=true")).isTrue();
            assertThat(child.stop(START)).isTrue();
        } finally {
            if (before == null) {
                System.clearProperty(ClassArchives.PROPERTY);
            } else {
                System.setProperty(ClassArchives.PROPERTY, before);
            }
        }
    }

    private JavaProcess sharing(String name, Path stopped) {
        return JavaLauncher.mainClass(name, ChildMain.class).classDataSharing("ready")
                .jvmOptions("-Xlog:class+load=info").systemProperty("child.property", "shared")
                .arguments("wait", stopped.toString()).log(dir.resolve(name + ".log")).start();
    }

    private List<Path> archives() throws Exception {
        try (var files = Files.list(dir.resolve("archives"))) {
            return files.filter(file -> file.getFileName().toString().endsWith(".jsa")).toList();
        }
    }

    private JavaProcess waiting(String name, Path stopped) {
        JavaProcess child = JavaLauncher.mainClass(name, ChildMain.class).arguments("wait", stopped.toString())
                .log(dir.resolve(name + ".log")).start();
        child.awaitLine("ready", START);
        return child;
    }
}
