package dev.onebeat.scheduler.boot.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The shell commands a page shows a user, run as the user would paste them against the running jar: each line of the
 * page's {@code bash} block after a marker, in {@code bash -o pipefail}, with the documented ports replaced by the
 * test's and {@code PW} set to the generated password.
 */
final class DocumentedCommands {

    private DocumentedCommands() {
    }

    /** @return the lines of the first {@code ```bash} block after {@code marker} in {@code page} */
    static List<String> bashBlockAfter(Path page, String marker) throws IOException {
        String text = Files.readString(page, StandardCharsets.UTF_8);
        int at = text.indexOf(marker);
        assertThat(at).as("'%s' in %s", marker, page).isNotNegative();
        int start = text.indexOf("```bash\n", at);
        assertThat(start).as("a bash block after '%s' in %s", marker, page).isNotNegative();
        start += "```bash\n".length();
        String block = text.substring(start, text.indexOf("\n```", start));
        List<String> lines = new ArrayList<>();
        for (String line : block.split("\n")) {
            if (!line.isBlank() && !line.startsWith("export PW=")) {
                lines.add(line);
            }
        }
        return lines;
    }

    /**
     * Runs each line against the jar; a line fails the test when it exits non-zero (a {@code grep} that finds
     * nothing, a refused connection) or prints nothing (curl's answer to a refused password is empty).
     */
    static void runAll(List<String> lines, int httpPort, int pgPort, String password, Path workDir) throws Exception {
        assertThat(lines).isNotEmpty();
        for (String line : lines) {
            String command = line.replace("localhost:8080", "localhost:" + httpPort)
                    .replace("-p 54329", "-p " + pgPort);
            ProcessBuilder builder = new ProcessBuilder("bash", "-o", "pipefail", "-c", command)
                    .redirectErrorStream(true).directory(workDir.toFile());
            builder.environment().putAll(Map.of("PW", password));
            Process process = builder.start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("'%s' ended", command).isTrue();
            assertThat(process.exitValue()).as("exit status of '%s', which printed:%n%s", command, output).isZero();
            assertThat(output).as("what '%s' printed", command).isNotBlank().doesNotContain("Unauthorized");
        }
    }
}
