package dev.onebeat.scheduler.web.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The job-file client, for a pipeline: {@code java -jar scheduler-app.jar plan|apply --file jobs.yaml --namespace
 * payments [--url http://onebeat:8080] [--prune] [--detect-drift]}. It sends the file to the admin API
 * ({@code POST /api/namespaces/{namespace}/plan} or {@code apply}) with the bearer token of {@code ONEBEAT_TOKEN} (or
 * {@code --token-file}), prints the plan a job a line, and exits with 0; with {@code --detect-drift}, 2 when the plan
 * would change anything (a job changed by hand, a file not applied yet); 1 on any error, printed.
 *
 * <p>Written by hand on the JDK's HTTP client: a few lines, where a generated client or a CLI library would add a
 * dependency to every replica's jar for a command run from a pipeline.
 */
public final class JobFileCommand {

    static final int OK = 0;
    static final int ERROR = 1;
    static final int DRIFT = 2;
    private static final Set<String> COMMANDS = Set.of("plan", "apply");
    private static final Set<String> FLAGS = Set.of("--prune", "--detect-drift");
    private static final Set<String> OPTIONS = Set.of("--file", "--namespace", "--url", "--token-file");

    private JobFileCommand() {
    }

    /** @return whether the arguments ask for this client rather than a replica */
    public static boolean handles(String[] args) {
        return args.length > 0 && COMMANDS.contains(args[0]);
    }

    /**
     * @param environment where {@code ONEBEAT_TOKEN} is read
     * @return the exit code
     */
    public static int run(String[] args, Map<String, String> environment, PrintStream out, PrintStream err) {
        Map<String, String> options = new HashMap<>();
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            int equals = arg.indexOf('=');
            String name = equals > 0 ? arg.substring(0, equals) : arg;
            if (FLAGS.contains(name)) {
                options.put(name, "true");
            } else if (OPTIONS.contains(name)) {
                String value = equals > 0 ? arg.substring(equals + 1) : i + 1 < args.length ? args[++i] : null;
                if (value == null) {
                    return usage(err, name + " needs a value");
                }
                options.put(name, value);
            } else {
                return usage(err, "unknown argument '" + arg + "'");
            }
        }
        if (!options.containsKey("--file") || !options.containsKey("--namespace")) {
            return usage(err, "--file and --namespace are required");
        }
        try {
            String token = options.containsKey("--token-file")
                    ? Files.readString(Path.of(options.get("--token-file"))).strip()
                    : environment.get("ONEBEAT_TOKEN");
            if (token == null || token.isBlank()) {
                return usage(err, "no token: set ONEBEAT_TOKEN or --token-file (an API token with the role: viewer in "
                        + "the namespace to plan, admin to apply)");
            }
            Path file = Path.of(options.get("--file"));
            String url = options.getOrDefault("--url", "http://localhost:8080").replaceAll("/+$", "");
            URI uri = URI.create(url + "/api/namespaces/" + encode(options.get("--namespace")) + "/" + args[0]
                    + "?file=" + encode(file.getFileName().toString()) + "&prune=" + options.containsKey("--prune"));
            HttpResponse<String> response = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()
                    .send(HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(2))
                            .header("Authorization", "Bearer " + token)
                            .header("Content-Type", "application/yaml")
                            .POST(HttpRequest.BodyPublishers.ofString(Files.readString(file))).build(),
                            HttpResponse.BodyHandlers.ofString());
            JsonNode body = JsonMapper.builder().build().readTree(response.body().isEmpty() ? "{}" : response.body());
            if (response.statusCode() != 200) {
                err.printf("%s %s: %d %s%n", args[0], uri, response.statusCode(),
                        body.path("detail").asString(response.body()));
                return ERROR;
            }
            boolean changes = print(args[0], body, out);
            return options.containsKey("--detect-drift") && changes && args[0].equals("plan") ? DRIFT : OK;
        } catch (IOException | RuntimeException e) {
            err.println(args[0] + ": " + e);
            return ERROR;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ERROR;
        }
    }

    /** Prints the plan, a job a line. @return whether it changes anything */
    private static boolean print(String command, JsonNode plan, PrintStream out) {
        out.printf("%s of %s for namespace %s (prune: %s)%n", command.equals("plan") ? "plan" : "applied",
                plan.path("file").asString(), plan.path("namespace").asString(),
                plan.path("prune").asBoolean() ? "yes" : "no");
        Map<String, Integer> counts = new HashMap<>();
        for (JsonNode job : plan.path("jobs")) {
            String action = job.path("action").asString();
            counts.merge(action, 1, Integer::sum);
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %s %-11s %s", switch (action) {
                case "CREATE" -> "+";
                case "CHANGE" -> "~";
                case "DELETE" -> "-";
                case "UNCHANGED" -> "=";
                default -> "?";
            }, action.toLowerCase(Locale.ROOT).replace('_', ' '), job.path("job").asString()));
            for (JsonNode field : job.path("fields")) {
                line.append(String.format(Locale.ROOT, "%n      %s: %s -> %s", field.path("field").asString(),
                        shown(field.path("from")), shown(field.path("to"))));
            }
            if (job.path("drifted").asBoolean()) {
                line.append(String.format(Locale.ROOT, "%n      drift: changed by hand since it was applied from %s",
                        job.path("appliedFrom").asString()));
            }
            if (action.equals("NOT_IN_FILE")) {
                line.append(" (kept; --prune deletes it)");
            }
            out.println(line);
        }
        out.printf("%d to create, %d to change, %d to delete, %d unchanged%s%n", counts.getOrDefault("CREATE", 0),
                counts.getOrDefault("CHANGE", 0), counts.getOrDefault("DELETE", 0),
                counts.getOrDefault("UNCHANGED", 0), counts.containsKey("NOT_IN_FILE")
                        ? ", " + counts.get("NOT_IN_FILE") + " not in the file" : "");
        return List.of("CREATE", "CHANGE", "DELETE").stream().anyMatch(counts::containsKey);
    }

    private static String shown(JsonNode value) {
        return value == null || value.isMissingNode() || value.isNull() ? "(unset)" : value.toString();
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static int usage(PrintStream err, String problem) {
        err.println(problem);
        err.println("usage: java -jar scheduler-app.jar plan|apply --file <jobs.yaml> --namespace <namespace> "
                + "[--url http://localhost:8080] [--token-file <file>] [--prune] [--detect-drift]");
        err.println("  the token is ONEBEAT_TOKEN's, or --token-file's; exit 0, 2 when --detect-drift finds changes, "
                + "1 on an error");
        return ERROR;
    }
}
