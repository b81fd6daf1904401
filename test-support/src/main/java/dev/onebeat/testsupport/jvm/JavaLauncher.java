package dev.onebeat.testsupport.jvm;

import static java.util.Objects.requireNonNull;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * How a test starts a JVM of its own: a main class on a class path, or {@code -jar}. One builder for every child JVM
 * the tests start, so that they all run on the test's own {@code java}, start with the same {@link #FAST_START
 * options} (unless a benchmark asks for {@link #plainJvm() none}), and are counted in {@link StartLog}.
 *
 * <p>Not thread-safe; each {@link #start()} launches one more JVM from the same settings.
 */
public final class JavaLauncher {

    /**
     * What every child JVM gets unless {@link #plainJvm()} is called: the serial collector and the C1 compiler only,
     * for a JVM whose life is short and whose work is mostly waiting; neither changes what the application does.
     * Measured on one scheduler replica (ReplicaMain, -Xmx256m, a migrated database) from launch to Spring Boot's
     * "Started", two rounds taken in turn on the 2-core machine at load averages of 20 to 90, so only large
     * differences count: without these options 206 and 191 s; with them 141 and 188 s; with {@code -XX:-UsePerfData}
     * too 137 and 100 s (within the noise: not taken). Class-data sharing, which needs the class path's folders run
     * from jars, is asked for separately ({@link #classDataSharing}).
     */
    public static final List<String> FAST_START = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    private final String name;
    private final List<String> target;
    private final String mainClass;
    private Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    private String classPath = System.getProperty("java.class.path");
    private boolean fastStart = true;
    private final List<String> prefix = new ArrayList<>();
    private final List<String> jvmOptions = new ArrayList<>();
    private final Map<String, String> systemProperties = new LinkedHashMap<>();
    private final List<String> arguments = new ArrayList<>();
    private final Map<String, String> environment = new LinkedHashMap<>();
    private Predicate<String> inheritedVariableDropped = variable -> false;
    private Path directory;
    private Path log;
    private boolean appendLog;
    private Redirect input = Redirect.PIPE;
    private String readyLine;

    private JavaLauncher(String name, String mainClass, List<String> target) {
        this.name = requireNonNull(name, "name");
        this.mainClass = mainClass;
        this.target = target;
    }

    /** A JVM running {@code mainClass} on the test's class path (see {@link #classPath(String)}). */
    public static JavaLauncher mainClass(String name, Class<?> mainClass) {
        return mainClass(name, mainClass.getName());
    }

    /** A JVM running the class named {@code mainClass} on the test's class path. */
    public static JavaLauncher mainClass(String name, String mainClass) {
        requireNonNull(mainClass, "mainClass");
        return new JavaLauncher(name, mainClass, null);
    }

    /** {@code java -jar jar}, as a user runs a packaged application. */
    public static JavaLauncher jar(String name, Path jar) {
        return new JavaLauncher(name, null, List.of("-jar", requireNonNull(jar, "jar").toString()));
    }

    /** A JVM run for what its {@link #jvmOptions options} alone make it print, such as {@code -version}. */
    public static JavaLauncher optionsOnly(String name) {
        return new JavaLauncher(name, null, List.of());
    }

    /** The {@code java} to run; by default the one running the test ({@code java.home}). */
    public JavaLauncher java(Path java) {
        this.java = requireNonNull(java, "java");
        return this;
    }

    /** The class path of a {@link #mainClass} JVM; by default the test JVM's {@code java.class.path}. */
    public JavaLauncher classPath(String classPath) {
        if (mainClass == null) {
            throw new IllegalStateException("classPath: a -jar JVM takes its class path from its jar");
        }
        this.classPath = requireNonNull(classPath, "classPath");
        return this;
    }

    /** No {@link #FAST_START} options: a benchmark's JVM that must run with the full JIT and the default collector. */
    public JavaLauncher plainJvm() {
        this.fastStart = false;
        return this;
    }

    /**
     * Class-data sharing ({@link ClassArchives}): the JVM maps the classes an earlier JVM on the same class path
     * loaded, from an archive written once that one had logged {@code readyLine} (which needs a {@link #log}). For a
     * {@link #mainClass} JVM that is started again and again, such as a scheduler replica; the folders on its class
     * path are run from jars of their content, in the same order. Ignored with a {@link #prefix} (the process started
     * would not be the JVM) and under {@code -Donebeat.class-archives=off}.
     */
    public JavaLauncher classDataSharing(String readyLine) {
        if (mainClass == null) {
            throw new IllegalStateException("classDataSharing: only for a main class on a class path");
        }
        this.readyLine = requireNonNull(readyLine, "readyLine");
        return this;
    }

    /** JVM options ({@code -Xmx256m}, {@code -Dloader.path=…}), after the fast-start ones, before the main class. */
    public JavaLauncher jvmOptions(String... options) {
        return jvmOptions(List.of(options));
    }

    public JavaLauncher jvmOptions(List<String> options) {
        options.forEach(option -> jvmOptions.add(requireNonNull(option, "jvmOptions")));
        return this;
    }

    /** A {@code -Dname=value}. */
    public JavaLauncher systemProperty(String name, String value) {
        systemProperties.put(requireNonNull(name, "systemProperty name"), requireNonNull(value, name));
        return this;
    }

    public JavaLauncher systemProperties(Map<String, String> properties) {
        properties.forEach(this::systemProperty);
        return this;
    }

    /** Arguments of the main class or jar, after those given before. */
    public JavaLauncher arguments(String... arguments) {
        return arguments(List.of(arguments));
    }

    public JavaLauncher arguments(List<String> arguments) {
        arguments.forEach(argument -> this.arguments.add(requireNonNull(argument, "arguments")));
        return this;
    }

    /** A command that runs the JVM's command line, such as {@code faketime -f +2s}. */
    public JavaLauncher prefix(List<String> command) {
        prefix.addAll(command);
        return this;
    }

    /** Variables added to (or replacing) the test JVM's environment, which the child inherits. */
    public JavaLauncher environment(Map<String, String> variables) {
        variables.forEach((variable, value) -> environment.put(requireNonNull(variable, "environment variable"),
                requireNonNull(value, variable)));
        return this;
    }

    /** Inherited variables the child does not get (added ones it gets all the same). */
    public JavaLauncher dropInheritedVariables(Predicate<String> dropped) {
        this.inheritedVariableDropped = requireNonNull(dropped, "dropped");
        return this;
    }

    /** Its working directory; by default the test's (the module's directory under Maven). */
    public JavaLauncher directory(Path directory) {
        this.directory = requireNonNull(directory, "directory");
        return this;
    }

    /** Its stdout and stderr into {@code log}, emptied first; by default they are the test JVM's own. */
    public JavaLauncher log(Path log) {
        this.log = requireNonNull(log, "log");
        this.appendLog = false;
        return this;
    }

    /** Its stdout and stderr appended to {@code log}, as for a JVM restarted on the same files. */
    public JavaLauncher appendLog(Path log) {
        this.log = requireNonNull(log, "log");
        this.appendLog = true;
        return this;
    }

    /** Its stdin reads nothing ({@code /dev/null}) instead of a pipe from the test that is never written to. */
    public JavaLauncher noInput() {
        this.input = Redirect.from(new File("/dev/null"));
        return this;
    }

    /**
     * @return the whole command line {@link #start()} runs (under {@link #classDataSharing}, {@code start()} runs the
     *     class path's folders from jars and may add the archive's option)
     */
    public List<String> command() {
        return command(classPath, List.of());
    }

    private List<String> command(String classPath, List<String> sharingOptions) {
        List<String> command = new ArrayList<>(prefix);
        command.add(java.toString());
        if (fastStart) {
            command.addAll(FAST_START);
        }
        command.addAll(sharingOptions);
        command.addAll(jvmOptions);
        systemProperties.forEach((property, value) -> command.add("-D" + property + "=" + value));
        if (mainClass != null) {
            command.addAll(List.of("-cp", classPath, mainClass));
        } else {
            command.addAll(target);
        }
        command.addAll(arguments);
        return command;
    }

    /** The options an archive is made for: the fast-start ones and the heap's size (compressed pointers or not). */
    private List<String> archiveOptions() {
        List<String> options = new ArrayList<>(fastStart ? FAST_START : List.of());
        jvmOptions.stream().filter(option -> option.startsWith("-Xmx") || option.startsWith("-XX:MaxHeapSize"))
                .forEach(options::add);
        return options;
    }

    /** Launches the JVM and returns at once, without waiting for it to be ready. */
    public JavaProcess start() {
        if (readyLine != null && log == null) {
            throw new IllegalStateException(name + ": classDataSharing reads the ready line from a log; name one");
        }
        ClassArchives archives = readyLine == null || !prefix.isEmpty() ? null : ClassArchives.configured();
        ClassArchives.Shared shared = archives == null ? null : archives.share(java, classPath, archiveOptions());
        List<String> command = shared == null ? command() : command(shared.classPath(), shared.options());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectInput(input);
        if (directory != null) {
            builder.directory(directory.toFile());
        }
        if (log != null) {
            try {
                Files.createDirectories(log.toAbsolutePath().getParent());
            } catch (IOException e) {
                throw new UncheckedIOException("could not create the folder of " + name + "'s log " + log, e);
            }
            builder.redirectOutput(appendLog ? Redirect.appendTo(log.toFile()) : Redirect.to(log.toFile()));
        } else {
            builder.inheritIO().redirectInput(input);
        }
        builder.environment().keySet().removeIf(inheritedVariableDropped);
        builder.environment().putAll(environment);
        try {
            Process process = builder.start();
            StartLog.record(name, mainClass != null ? mainClass : target.isEmpty() ? "(options only)"
                    : String.join(" ", target), process.pid());
            JavaProcess started = new JavaProcess(name, process, log);
            if (shared != null && shared.training()) {
                archives.dumpWhenReady(shared, started, readyLine);
            }
            return started;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name + ": " + command, e);
        }
    }
}
