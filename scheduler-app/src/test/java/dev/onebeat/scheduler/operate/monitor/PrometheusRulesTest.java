package dev.onebeat.scheduler.operate.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The shipped alert rules and Grafana dashboard ({@code ops/}), checked and exercised by Prometheus's own
 * {@code promtool} (Debian package {@code prometheus}; {@code .ci/run} installs it).
 */
class PrometheusRulesTest {

    private static final Path OPS = Path.of("..", "ops");
    private static final String PROMTOOL = "/usr/bin/promtool";

    @Test
    void theRulesAreValid() throws Exception {
        Result check = promtool("check", "rules", OPS.resolve("prometheus/onebeat-rules.yml").toString());

        assertThat(check.exit()).as(check.output()).isZero();
        assertThat(check.output()).contains("SUCCESS: 9 rules found");
    }

    @Test
    void theRulesPassTheirScenariosOverdueRecoveredAllReplicasGoneAndARelayFailing() throws Exception {
        Result test = promtool("test", "rules", OPS.resolve("prometheus/onebeat-rules.test.yml").toString());

        assertThat(test.exit()).as(test.output()).isZero();
        assertThat(test.output()).contains("SUCCESS");
    }

    @Test
    void everyQueryOfTheDashboardIsValidPromQl(@TempDir Path dir) throws Exception {
        JsonNode dashboard = JsonMapper.builder().build().readTree(OPS.resolve("grafana/onebeat-dashboard.json").toFile());
        List<String> rules = new ArrayList<>(List.of("groups:", "  - name: dashboard", "    rules:"));
        int n = 0;
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                // Grafana's variables as Prometheus would receive them
                String expr = target.path("expr").asString().replace("$__rate_interval", "5m").replace("$job", ".*");
                rules.add("      - record: dashboard:query_" + ++n);
                rules.add("        expr: '" + expr.replace("'", "''") + "'");
            }
        }
        Path file = dir.resolve("dashboard-queries.yml");
        Files.write(file, rules);

        Result check = promtool("check", "rules", file.toString());

        assertThat(n).isGreaterThanOrEqualTo(14);
        assertThat(check.exit()).as(check.output()).isZero();
    }

    private record Result(int exit, String output) {
    }

    private static Result promtool(String... arguments) throws IOException, InterruptedException {
        assertThat(Path.of(PROMTOOL)).as("promtool, from Debian's package prometheus (apt-get install prometheus)")
                .isExecutable();
        List<String> command = new ArrayList<>(List.of(PROMTOOL));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(process.exitValue(), output);
    }
}
