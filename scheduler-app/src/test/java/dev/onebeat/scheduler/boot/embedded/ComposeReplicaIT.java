package dev.onebeat.scheduler.boot.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.testsupport.EmptyDatabase;
import dev.onebeat.testsupport.FreePorts;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.testsupport.jvm.JavaLauncher;
import dev.onebeat.testsupport.jvm.JavaProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.yaml.snakeyaml.Yaml;

/**
 * {@code docker-compose.yml}'s replica, without Docker: the image's jar (the lean one) started with the
 * environment the compose file gives each replica, its {@code ${…}} references filled the way Compose fills
 * them from a {@code .env} written as {@code .env.example} says (a single-quoted {@code {bcrypt}} hash, in the
 * {@code $2y$} form {@code htpasswd} prints). The admin user it defines signs in; without the hash the
 * compose file refuses to start, naming the variable. Only the database (a test database here, PostgreSQL's
 * container there) and the relay's broker, which the interop tests cover, differ.
 */
// empty, not the migrated template: the packaged jar's first start creates the tables, as on a new deployment
@EmptyDatabase
@ExtendWith(PostgresExtension.class)
class ComposeReplicaIT {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([A-Z0-9_]+)(?::\\?([^}]*))?}");

    @TempDir
    Path workDir;

    @Test
    void aReplicaStartedWithTheComposeEnvironmentSignsInTheAdminFromDotEnv(TestDatabase database) throws Exception {
        Map<String, String> compose = replicaEnvironment();
        assertThat(compose).containsEntry("ONEBEAT_SECURITY_USERS_0_NAME", "admin")
                .containsEntry("ONEBEAT_SECURITY_USERS_0_ROLE", "admin");
        String example = Files.readString(ROOT.resolve(".env.example"));
        assertThat(example).contains("ONEBEAT_ADMIN_PASSWORD_HASH='{bcrypt}");

        String password = "pw-" + UUID.randomUUID();
        String hash = new BCryptPasswordEncoder(BCryptPasswordEncoder.BCryptVersion.$2Y, 10).encode(password);
        Map<String, String> dotEnv = dotEnv("ONEBEAT_ADMIN_PASSWORD_HASH='{bcrypt}" + hash + "'\n");
        assertThat(dotEnv.get("ONEBEAT_ADMIN_PASSWORD_HASH")).as("single quotes keep the $ signs")
                .isEqualTo("{bcrypt}" + hash);
        assertThatUnsetHashIsRefused(compose);

        Map<String, String> environment = new LinkedHashMap<>();
        compose.forEach((name, value) -> environment.put(name, interpolate(value, dotEnv)));
        environment.keySet().removeIf(name -> name.startsWith("ONEBEAT_RELAY_"));
        environment.put("SPRING_DATASOURCE_URL", database.jdbcUrl());
        environment.put("SPRING_DATASOURCE_USERNAME", database.username());
        environment.put("SPRING_DATASOURCE_PASSWORD", database.password() == null ? "" : database.password());

        int port = FreePorts.take();
        Path log = workDir.resolve("replica.log");
        JavaProcess replica = JavaLauncher.jar("compose-replica", Path.of("target", "scheduler-app-lean.jar")
                        .toAbsolutePath())
                .jvmOptions("-Xmx384m")
                .arguments("--server.port=" + port)
                .environment(environment)
                .directory(workDir)
                .log(log)
                .start();
        try {
            awaitHealthy(port, replica, log);
            assertThat(status(port, "admin", password)).isEqualTo(200);
            assertThat(status(port, "admin", "not-" + password)).isEqualTo(401);
            assertThat(status(port, null, null)).isEqualTo(401);
            assertThat(Files.readString(log)).doesNotContain("generated admin password");
        } finally {
            replica.stop(Duration.ofSeconds(60));
        }
    }

    /** Compose stops before starting anything when a {@code ${NAME:?message}} variable is unset. */
    private static void assertThatUnsetHashIsRefused(Map<String, String> compose) {
        String reference = compose.get("ONEBEAT_SECURITY_USERS_0_PASSWORD");
        Matcher m = REFERENCE.matcher(reference);
        assertThat(m.matches()).as(reference).isTrue();
        assertThat(m.group(1)).isEqualTo("ONEBEAT_ADMIN_PASSWORD_HASH");
        assertThat(m.group(2)).as("the message Compose prints").contains(".env.example");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> replicaEnvironment() throws IOException {
        Map<String, Object> file = new Yaml().load(Files.readString(ROOT.resolve("docker-compose.yml")));
        Map<String, Object> replica = (Map<String, Object>) file.get("x-onebeat-replica");
        Map<String, String> environment = new LinkedHashMap<>();
        ((Map<String, Object>) replica.get("environment")).forEach((name, value) -> environment.put(name,
                String.valueOf(value)));
        return environment;
    }

    /** Compose's reading of a {@code .env} line {@code NAME='value'}: single-quoted text is taken as it is. */
    private static Map<String, String> dotEnv(String text) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String name = line.substring(0, line.indexOf('='));
            String value = line.substring(line.indexOf('=') + 1);
            assertThat(value).as("the form .env.example asks for").startsWith("'").endsWith("'");
            values.put(name, value.substring(1, value.length() - 1));
        }
        return values;
    }

    /** Compose's interpolation of the compose file: one pass, values are not read again. */
    private static String interpolate(String value, Map<String, String> dotEnv) {
        Matcher m = REFERENCE.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement = dotEnv.get(m.group(1));
            assertThat(replacement).as("%s is set", m.group(1)).isNotNull();
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static void awaitHealthy(int port, JavaProcess replica, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            assertThat(replica.isAlive()).as("the replica runs: %s", Files.readString(log)).isTrue();
            assertThat(System.nanoTime()).as("health UP within 120 s: %s", Files.readString(log)).isLessThan(deadline);
            try {
                HttpResponse<String> health = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://localhost:" + port + "/actuator/health")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (health.statusCode() == 200 && health.body().contains("UP")) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(500);
        }
    }

    private static int status(int port, String user, String password) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/jobs"));
        if (user != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                    (user + ":" + password).getBytes(StandardCharsets.UTF_8)));
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    }
}
