package dev.onebeat.scheduler.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * What {@link FanOutBenchmark} runs. Arguments are {@code --name=value}; the server and batch
 * sizes may also come from the environment.
 *
 * @param adminUrl JDBC URL of a database on the server the benchmark database is created on
 * @param entities tasks per fire, rows per raw round
 * @param warmups unmeasured rounds before each measured phase
 * @param rounds measured rounds per phase
 * @param batchSizes values of {@code onebeat.fire.batch-size} to measure, one application each
 * @param rowsPerStatement rows per raw multi-row statement, and per raw transaction
 * @param breakdown whether to time the stages of a fire separately afterwards
 */
record BenchOptions(String adminUrl, int entities, int warmups, int rounds, List<Integer> batchSizes,
                    int rowsPerStatement, boolean breakdown) {

    static final String URL_VARIABLE = "ONEBEAT_BENCH_JDBC_URL";
    static final String BATCH_SIZES_VARIABLE = "ONEBEAT_BENCH_BATCH_SIZES";
    static final String DEFAULT_ADMIN_URL = "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres";

    static final String USAGE = """
            usage: fanout.sh [--entities=10000] [--warmups=3] [--rounds=10] [--batch-sizes=1000,5000]
                             [--rows-per-statement=1000] [--no-breakdown] [--help]
            environment: %s (default %s), %s (same as --batch-sizes)
            """.formatted(URL_VARIABLE, DEFAULT_ADMIN_URL, BATCH_SIZES_VARIABLE);

    BenchOptions {
        requireAtLeast("entities", entities, 1);
        requireAtLeast("warmups", warmups, 0);
        requireAtLeast("rounds", rounds, 1);
        requireAtLeast("rows-per-statement", rowsPerStatement, 1);
        if (!adminUrl.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException(URL_VARIABLE + " must be a jdbc:postgresql: URL");
        }
        if (batchSizes.isEmpty()) {
            throw new IllegalArgumentException("batch-sizes must name at least one size");
        }
        batchSizes.forEach(size -> requireAtLeast("batch-sizes", size, 1));
        batchSizes = List.copyOf(batchSizes);
    }

    /**
     * @throws IllegalArgumentException naming the argument that is unknown or malformed
     */
    static BenchOptions parse(String[] args, Map<String, String> environment) {
        String adminUrl = environment.getOrDefault(URL_VARIABLE, DEFAULT_ADMIN_URL).strip();
        String batchSizes = environment.getOrDefault(BATCH_SIZES_VARIABLE, "1000,5000");
        int entities = 10_000;
        int warmups = 3;
        int rounds = 10;
        int rowsPerStatement = 1000;
        boolean breakdown = true;
        for (String arg : args) {
            String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            String value = arg.substring(name.length() + (arg.contains("=") ? 1 : 0));
            switch (name) {
                case "--entities" -> entities = number(name, value);
                case "--warmups" -> warmups = number(name, value);
                case "--rounds" -> rounds = number(name, value);
                case "--batch-sizes" -> batchSizes = value;
                case "--rows-per-statement" -> rowsPerStatement = number(name, value);
                case "--no-breakdown" -> breakdown = false;
                default -> throw new IllegalArgumentException("unknown argument " + arg);
            }
        }
        return new BenchOptions(adminUrl, entities, warmups, rounds, numbers("--batch-sizes", batchSizes), rowsPerStatement, breakdown);
    }

    /**
     * The options of a benchmark's {@code main}: {@code null} once the usage is printed for
     * {@code --help}; a malformed or unknown argument prints why and the usage and exits with 2.
     */
    static <T> T parseOrExit(String[] args, String usage, BiFunction<String[], Map<String, String>, T> parser) {
        if (List.of(args).contains("--help")) {
            System.out.print(usage);
            return null;
        }
        try {
            return parser.apply(args, System.getenv());
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.print(usage);
            System.exit(2);
            return null;
        }
    }

    /** A comma-separated list of whole numbers; shared with the other benchmarks' options. */
    static List<Integer> numbers(String name, String list) {
        List<Integer> numbers = new ArrayList<>();
        for (String value : Arrays.stream(list.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList()) {
            numbers.add(number(name, value));
        }
        return numbers;
    }

    /** @return the name of a {@code --name=value} or {@code --flag} argument */
    static String argName(String arg) {
        int equals = arg.indexOf('=');
        return equals < 0 ? arg : arg.substring(0, equals);
    }

    /** @return the value of a {@code --name=value} argument, empty for a {@code --flag} */
    static String argValue(String arg) {
        int equals = arg.indexOf('=');
        return equals < 0 ? "" : arg.substring(equals + 1);
    }

    static int number(String name, String value) {
        try {
            return Integer.parseInt(value.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": '" + value + "' is not a whole number", e);
        }
    }

    static void requireAtLeast(String name, int value, int minimum) {
        if (value < minimum) {
            throw new IllegalArgumentException(name + " must be at least " + minimum + ", was " + value);
        }
    }
}
