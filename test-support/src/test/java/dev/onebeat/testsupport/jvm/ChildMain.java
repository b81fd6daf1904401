package dev.onebeat.testsupport.jvm;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The child JVM of {@link JavaLauncherIT}: prints what it was given, then exits with the status its first argument
 * names, or with {@code wait} runs until it is stopped (a shutdown hook writes the file its second argument names).
 */
public final class ChildMain {

    private ChildMain() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("property=" + System.getProperty("child.property"));
        System.out.println("variable=" + System.getenv("CHILD_VARIABLE"));
        System.out.println("inherited PATH=" + (System.getenv("PATH") != null));
        System.out.println("directory=" + Path.of("").toAbsolutePath());
        System.out.println("arguments=" + String.join(",", args));
        // a folder looked up by name, as classpath:/templates/ and package scans do: a jar without folder entries has none
        System.out.println("folder resource="
                + (ChildMain.class.getClassLoader().getResource("dev/onebeat/testsupport/jvm/") != null));
        if (!args[0].equals("wait")) {
            System.exit(Integer.parseInt(args[0]));
        }
        Path stopped = Path.of(args[1]);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                Files.writeString(stopped, "stopped");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }));
        System.out.println("ready");
        Thread.sleep(Long.MAX_VALUE);
    }
}
