package dev.onebeat.scheduler.engine.cluster;

import dev.onebeat.scheduler.SecurityTestUsers;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Database faults for the tests and the benchmark that inflict them on scheduler replicas: every session of the
 * replicas' database terminated ({@code pg_terminate_backend}) at a fixed pace, and what the replicas' instants API
 * and ledger say afterwards.
 */
public final class DatabaseFaults {

    /** How the reason of an instant missed during a database fault says so. */
    public static final String UNREACHABLE = "the database could not be reached";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private DatabaseFaults() {
    }

    /** Opens a connection to the database whose sessions are killed. */
    public interface Connector {
        Connection connect() throws SQLException;
    }

    /**
     * Terminates every other session of the database {@code connector} connects to, every {@code every}, for
     * {@code during}.
     *
     * @return how many sessions were terminated in all
     */
    public static int killSessions(DataSource dataSource, Duration during, Duration every) throws InterruptedException {
        return killSessions(dataSource::getConnection, during, every);
    }

    /** As {@link #killSessions(DataSource, Duration, Duration)}, on the connections of {@code connector}. */
    public static int killSessions(Connector connector, Duration during, Duration every) throws InterruptedException {
        long end = System.nanoTime() + during.toNanos();
        int killed = 0;
        while (System.nanoTime() < end) {
            try (Connection connection = connector.connect(); Statement statement = connection.createStatement();
                 var rows = statement.executeQuery("""
                         SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity
                         WHERE datname = current_database() AND pid <> pg_backend_pid()""")) {
                rows.next();
                killed += rows.getInt(1);
            } catch (SQLException e) {
                throw new IllegalStateException("could not terminate the replicas' sessions", e);
            }
            Thread.sleep(every.toMillis());
        }
        return killed;
    }

    /**
     * Terminates, once, every session that names itself {@code applicationName} (pgjdbc's {@code ApplicationName})
     * in the database of {@code dataSource}.
     *
     * @return how many sessions were terminated
     */
    public static int killSessionsOf(DataSource dataSource, String applicationName) {
        try (Connection connection = dataSource.getConnection(); var statement = connection.prepareStatement("""
                SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity
                WHERE datname = current_database() AND application_name = ?""")) {
            statement.setString(1, applicationName);
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not terminate the sessions of " + applicationName, e);
        }
    }

    /** One instant as {@code GET /api/jobs/{name}/instants} gives it. */
    public record Judged(Instant instant, String outcome, String reason, Instant graceEnds) {

        /** @return whether the API gives it an outcome with its reason, and a settled one (never pending nor running) */
        public boolean accounted() {
            return switch (outcome) {
                case "on-time", "late" -> true;
                case "skipped", "failed", "missed", "retrying" -> reason != null && !reason.isBlank();
                default -> false;
            };
        }

        /** @return the outcome with, for a skip, its reason: {@code skipped: paused} */
        public String label() {
            return outcome.equals("skipped") ? "skipped: " + reason : outcome;
        }
    }

    /**
     * @param baseUrl a replica's {@code http://host:port}
     * @param bearer its viewer token
     * @return the job's instants in {@code [from, to)} as the API judges them now
     */
    /**
     * @return arguments giving a replica the viewer and admin tokens of {@link SecurityTestUsers}: {@code
     *     SecurityTestUsers.token("viewer")} reads the API, {@code token("admin")} the metrics
     */
    public static List<String> tokens() {
        List<String> arguments = new ArrayList<>();
        List<String> roles = List.of("viewer", "admin");
        for (int i = 0; i < roles.size(); i++) {
            String role = roles.get(i);
            arguments.add("--onebeat.security.tokens[" + i + "].name=" + role + "-token");
            arguments.add("--onebeat.security.tokens[" + i + "].token-sha256="
                    + SecurityTestUsers.sha256Hex(SecurityTestUsers.token(role)));
            arguments.add("--onebeat.security.tokens[" + i + "].role=" + role);
        }
        return arguments;
    }

    public static List<Judged> instants(String baseUrl, String bearer, String job, Instant from, Instant to) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/api/jobs/" + job + "/instants?from=" + from
                        + "&to=" + to + "&limit=5000"))
                .header("Authorization", "Bearer " + bearer).timeout(Duration.ofSeconds(30)).build();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("instants of " + job + ": HTTP " + response.statusCode() + " "
                        + response.body());
            }
            List<Judged> judged = new ArrayList<>();
            for (JsonNode node : JSON.readTree(response.body()).get("instants")) {
                judged.add(new Judged(Instant.parse(node.get("instant").asString()), node.get("outcome").asString(),
                        node.hasNonNull("reason") ? node.get("reason").asString() : null,
                        Instant.parse(node.get("graceEnds").asString())));
            }
            return judged;
        } catch (IOException e) {
            throw new IllegalStateException("instants of " + job + " not read from " + baseUrl, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * @return instants per outcome: {@code committed} (on time or late), {@code skipped: <reason>}, {@code failed},
     *     {@code retrying}, {@code missed: the database could not be reached}, {@code pending} (inside its grace), and
     *     {@code none} for those past their grace with no outcome, or missed with nothing recorded that says why
     */
    public static Map<String, Integer> counts(List<Judged> instants, Instant now) {
        Map<String, Integer> counts = new TreeMap<>();
        for (Judged judged : instants) {
            counts.merge(label(judged, now), 1, Integer::sum);
        }
        return counts;
    }

    /** @return the instants {@link #counts} labels {@code none}: no outcome past their grace, or missed unexplained */
    public static List<Judged> unaccounted(List<Judged> instants, Instant now) {
        return instants.stream().filter(judged -> label(judged, now).startsWith("none")).toList();
    }

    private static String label(Judged judged, Instant now) {
        if (!judged.accounted()) {
            return now.isBefore(judged.graceEnds()) ? judged.outcome() : "none (" + judged.outcome() + ")";
        } else if (judged.outcome().equals("missed")) {
            return judged.reason().contains(UNREACHABLE) ? "missed: " + UNREACHABLE : "none (missed, nothing recorded)";
        } else if (judged.outcome().equals("on-time") || judged.outcome().equals("late")) {
            return "committed";
        }
        return judged.label();
    }

    /**
     * @param bearer an admin's token (the actuator's role)
     * @return the sum of a replica's {@code onebeat_fire_failed_total} series with {@code reason="database"}, from its
     *     Prometheus scrape
     */
    public static double fireFailures(String baseUrl, String bearer) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/actuator/prometheus"))
                .header("Authorization", "Bearer " + bearer).timeout(Duration.ofSeconds(30)).build();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("metrics of " + baseUrl + ": HTTP " + response.statusCode());
            }
            return response.body().lines().filter(line -> line.startsWith("onebeat_fire_failed_total{")
                            && line.contains("reason=\"database\""))
                    .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
        } catch (IOException e) {
            throw new IllegalStateException("metrics not read from " + baseUrl, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** @return the (job, instant) pairs of the schedule committed more than once: none, if the ledger holds */
    public static long duplicateCommits(JdbcClient jdbc) {
        return jdbc.sql("""
                        SELECT count(*) FROM (SELECT job_name, scheduled_at FROM onebeat_fire WHERE run_id = ''
                        GROUP BY job_name, scheduled_at HAVING count(*) > 1) twice""").query(Long.class).single();
    }
}
