package dev.onebeat.scheduler.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.transport.testing.RabbitTestBroker;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

/**
 * A declarative job's arguments written as a user writes them outside YAML, where every value is
 * text: once as real environment variables ({@code ONEBEAT_JOBS_0_ARGS_0=2}, Spring Boot's relaxed
 * binding of list indices and map keys), once as real command-line properties
 * ({@code --onebeat.jobs[0].args[0]=2}), each to the packaged application in a JVM of its own on a
 * database of its own. A real Celery worker gets them typed as written: numbers as {@code int} or
 * {@code float}, booleans as {@code bool}, lists as {@code list}, {@code null} as {@code None}, a
 * quoted {@code "7"} and text as {@code str}.
 *
 * <p>Two runs rather than one job from each source: a list configured in two property sources is
 * not merged, the one of higher precedence replaces it whole (Spring Boot's binding of complex
 * types), so {@code onebeat.jobs} cannot take one entry from each.
 */
@ExtendWith(PostgresExtension.class)
class CeleryTypedArgsIT {

    private static final String TASK = "interop.types";
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(120);

    /** Each argument as written, and the Python type and repr the worker must see. */
    private static final List<Written> ARGS = List.of(
            new Written("2", "int", "2"),
            new Written("true", "bool", "True"),
            new Written("[1,2.5]", "list[int, float]", "[1, 2.5]"),
            new Written("\"7\"", "str", "'7'"),
            new Written("plain text", "str", "'plain text'"),
            new Written("2.5", "float", "2.5"),
            new Written("-40", "int", "-40"),
            new Written("null", "NoneType", "None"),
            new Written("{\"a\": [false, \"x\"]}", "dict{a: list[bool, str]}", "{'a': [False, 'x']}"),
            // not JSON's number grammar: text
            new Written("007", "str", "'007'"));
    /** Keyword arguments; environment variables give lower-case keys without underscores. */
    private static final Map<String, Written> KWARGS = Map.of(
            "count", new Written("3", "int", "3"),
            "ratio", new Written("0.5", "float", "0.5"),
            "enabled", new Written("false", "bool", "False"),
            "region", new Written("eu-west", "str", "'eu-west'"),
            "code", new Written("\"10\"", "str", "'10'"));

    private static final RabbitTestBroker BROKER = new RabbitTestBroker();
    private static final String ENV_QUEUE = BROKER.newQueueName("typed-env");
    private static final String CLI_QUEUE = BROKER.newQueueName("typed-cli");
    private static PythonWorker worker;
    private static TestDatabase cliDatabase;
    private static final List<PackagedApp> APPS = new ArrayList<>();

    @BeforeAll
    static void startWorker() {
        worker = PythonWorker.celery(ENV_QUEUE, RabbitTestBroker.URL, Map.of(), ENV_QUEUE, CLI_QUEUE);
    }

    @Test
    void argumentsFromEnvironmentVariablesAndCommandLineReachCeleryTypedAsWritten(TestDatabase database) throws Exception {
        cliDatabase = createDatabase(database, "onebeat_t_typedargscli_" + HexFormat.of().toHexDigits(
                ThreadLocalRandom.current().nextInt()));

        Map<String, String> environment = new LinkedHashMap<>(datasource(database));
        environment.put("ONEBEAT_JOBS_0_NAME", "typed-env");
        environment.put("ONEBEAT_JOBS_0_EVERY", "1s");
        environment.put("ONEBEAT_JOBS_0_TASK", TASK);
        environment.put("ONEBEAT_JOBS_0_QUEUE", ENV_QUEUE);
        for (int i = 0; i < ARGS.size(); i++) {
            environment.put("ONEBEAT_JOBS_0_ARGS_" + i, ARGS.get(i).text());
        }
        KWARGS.forEach((name, value) -> environment.put("ONEBEAT_JOBS_0_KWARGS_" + name.toUpperCase(Locale.ROOT), value.text()));
        APPS.add(PackagedApp.start("typed-args-env", environment, common(ENV_QUEUE)));

        List<String> commandLine = new ArrayList<>(common(CLI_QUEUE));
        commandLine.add("--onebeat.jobs[0].name=typed-cli");
        commandLine.add("--onebeat.jobs[0].every=1s");
        commandLine.add("--onebeat.jobs[0].task=" + TASK);
        commandLine.add("--onebeat.jobs[0].queue=" + CLI_QUEUE);
        for (int i = 0; i < ARGS.size(); i++) {
            commandLine.add("--onebeat.jobs[0].args[" + i + "]=" + ARGS.get(i).text());
        }
        KWARGS.forEach((name, value) -> commandLine.add("--onebeat.jobs[0].kwargs." + name + "=" + value.text()));
        APPS.add(PackagedApp.start("typed-args-cli", datasource(cliDatabase), commandLine));

        try {
            await("a task from each application run").atMost(RUN_TIMEOUT).pollInterval(Duration.ofMillis(500))
                    .failFast("an application exited", () -> APPS.stream().anyMatch(app -> !app.isAlive()))
                    .until(() -> ranFrom(ENV_QUEUE) != null && ranFrom(CLI_QUEUE) != null);
        } catch (RuntimeException e) {
            StringBuilder logs = new StringBuilder();
            APPS.forEach(app -> logs.append("\n--- ").append(app).append(":\n").append(app.logTail()));
            throw new AssertionError(e.getMessage() + logs, e);
        }

        for (String queue : List.of(ENV_QUEUE, CLI_QUEUE)) {
            JsonNode run = ranFrom(queue);
            String source = queue.equals(ENV_QUEUE) ? "environment variables" : "command line";
            assertThat(texts(run.get("arg_types"))).as("Python types of the args from the %s", source)
                    .containsExactlyElementsOf(ARGS.stream().map(Written::pythonType).toList());
            assertThat(texts(run.get("arg_reprs"))).as("Python reprs of the args from the %s", source)
                    .containsExactlyElementsOf(ARGS.stream().map(Written::repr).toList());
            KWARGS.forEach((name, value) -> {
                assertThat(run.get("kwarg_types").get(name)).as("kwarg %s from the %s", name, source).isNotNull();
                assertThat(run.get("kwarg_types").get(name).asString()).as("type of kwarg %s from the %s", name, source)
                        .isEqualTo(value.pythonType());
                assertThat(run.get("kwarg_reprs").get(name).asString()).as("repr of kwarg %s from the %s", name, source)
                        .isEqualTo(value.repr());
            });
            assertThat(run.get("kwarg_types").propertyNames()).as("kwargs from the %s", source)
                    .containsExactlyInAnyOrderElementsOf(KWARGS.keySet());
        }
        assertThat(worker.errorLines()).as("error lines of %s", worker).isEmpty();
    }

    /** @return the first run the worker recorded of a task from {@code queue}, or {@code null} */
    private static JsonNode ranFrom(String queue) {
        return worker.records().stream().filter(run -> queue.equals(run.get("queue").asString())).findFirst().orElse(null);
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(item -> texts.add(item.asString()));
        return texts;
    }

    /** The database, as docs/postgresql.md gives it: environment variables. */
    private static Map<String, String> datasource(TestDatabase database) {
        return Map.of("SPRING_DATASOURCE_URL", database.jdbcUrl(), "SPRING_DATASOURCE_USERNAME", database.username(),
                "SPRING_DATASOURCE_PASSWORD", database.password());
    }

    /** What both runs share on their command line: no demo, no retention, any port, the queue routed to RabbitMQ. */
    private static List<String> common(String queue) {
        return List.of("--onebeat.demo.enabled=false", "--onebeat.retention.enabled=false",
                "--onebeat.jobs-dir=target/interop/no-jobs", "--server.port=0",
                "--onebeat.relay.brokers.rabbit.type=rabbitmq", "--onebeat.relay.brokers.rabbit.url=" + RabbitTestBroker.URL,
                "--onebeat.relay.queues." + queue + ".transport=celery", "--onebeat.relay.queues." + queue + ".broker=rabbit");
    }

    /** Creates a second, empty database on the server of {@code database}; dropped after the class. */
    private static TestDatabase createDatabase(TestDatabase database, String name) throws Exception {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + name + " TEMPLATE template0");
        }
        String url = database.jdbcUrl().replace("/" + database.name(), "/" + name);
        return new TestDatabase(name, url, database.username(), database.password());
    }

    @AfterAll
    static void stopEverything() throws Exception {
        TestDatabase database = PostgresExtension.database(CeleryTypedArgsIT.class);
        try {
            for (PackagedApp app : APPS) {
                app.close();
            }
            APPS.clear();
            if (cliDatabase != null) {
                try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
                    statement.execute("DROP DATABASE IF EXISTS " + cliDatabase.name() + " WITH (FORCE)");
                }
            }
        } finally {
            WorkerInteropBase.close(worker, BROKER);
        }
    }

    /**
     * @param text as written in the environment variable or on the command line
     * @param pythonType the type the worker must see, spelled out inside lists and dicts
     * @param repr its repr in the worker
     */
    private record Written(String text, String pythonType, String repr) {
    }
}
