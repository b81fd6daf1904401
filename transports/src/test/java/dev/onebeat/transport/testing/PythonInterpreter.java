package dev.onebeat.transport.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

/** Debian's python3, required, to prove real Python loads what the encoders write. */
public final class PythonInterpreter {

    private static final Path PYTHON = Path.of("/usr/bin/python3");

    private PythonInterpreter() {
    }

    /** Fails the test, naming the package to install, when Debian's python3 is missing (CI installs it). */
    public static void require() {
        if (!Files.isExecutable(PYTHON)) {
            throw new IllegalStateException(PYTHON + " is missing: install Debian's python3 (apt-get install python3);"
                    + " .ci/run does");
        }
    }

    /** Runs {@code script} with the bytes as hex in {@code sys.argv[1]} and returns its stdout. */
    public static String run(String script, byte[] bytes) {
        try {
            Process process = new ProcessBuilder(PYTHON.toString(), "-c", script, HexFormat.of().formatHex(bytes))
                    .redirectErrorStream(true)
                    .start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("python3 failed: " + output);
            }
            return output.strip();
        } catch (IOException e) {
            throw new IllegalStateException("python3 did not run", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for python3", e);
        }
    }

    /** {@code repr(pickle.loads(bytes))}, with non-ASCII escaped so the output encoding cannot matter. */
    public static String unpickle(byte[] pickle) {
        return run("import pickle,sys; print(ascii(pickle.loads(bytes.fromhex(sys.argv[1]))))", pickle);
    }
}
