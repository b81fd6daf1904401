package dev.onebeat.scheduler.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.onebeat.scheduler.FaultInjection;
import dev.onebeat.scheduler.SecurityTestUsers;
import dev.onebeat.testsupport.PrivatePostgres;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.transport.testing.WebhookServer;
import dev.onebeat.transport.testing.WebhookServer.Answer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * An asynchronous failover that loses commits, for real: two replicas on a multi-host URL over a private primary
 * {@code p1} and its streaming standby {@code p2}; the standby is stopped while the replicas keep firing, so the last
 * fires commit on {@code p1} alone; {@code p1}'s postmaster is killed and {@code p2} started and promoted. The
 * replicas notice the new server by themselves, give back the triggers their fire records on {@code p2} still hold,
 * and fire again, as recoveries under the same keys, the instants whose commits were lost with {@code p1}.
 */
@FaultInjection
class FailoverReconcileIT {

    private static final String DATABASE = "onebeat";
    private static final List<String> JOBS = List.of("tick-1s", "tock-2s", ReplicaMain.SLOW_JOB);

    /** (job, instant) of a committed fire, with the keys of its tasks. */
    private record Fire(String job, Instant at) {
    }

    @Test
    void firesLostWithTheOldPrimaryAreFiredAgainUnderTheirKeysAndNoTriggerStaysStuck() throws Exception {
        assumeTrue(PrivatePostgres.available(), "PostgreSQL binaries");
        try (PrivatePostgres p1 = PrivatePostgres.startPrimary("p1");
             WebhookServer hooks = new WebhookServer().on("/ticks", (request, attempt) -> Answer.of(200))) {
            // the standby first: pg_basebackup waits for a spread checkpoint, long once a database has been written
            try (PrivatePostgres p2 = p1.startStandby("p2");
                 Replicas replicas = new Replicas(new TestDatabase(DATABASE,
                         PrivatePostgres.multiHostUrl(DATABASE, List.of(p1, p2)), PrivatePostgres.SUPERUSER, ""),
                         "failover-reconcile")) {
                p1.createDatabase(DATABASE);
                String[] arguments = Stream.concat(Arrays.stream(arguments(hooks)),
                        DatabaseFaults.tokens().stream()).toArray(String[]::new);
                replicas.start("replica-1", "slow", arguments);
                replicas.start("replica-2", "slow", arguments);
                await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                        .until(() -> JOBS.stream().allMatch(job -> count(p1, "SELECT count(*) FROM onebeat_fire WHERE "
                                + "job_name = '" + job + "'") >= 2));
                // both replicas up, so that each has read the old server before it goes
                String api = replicas.baseUrl("replica-1");
                replicas.baseUrl("replica-2");
                p1.awaitStandbyCaughtUp("p2", Duration.ofSeconds(30));

                // from here on, commits exist on p1 alone; stopped while a fire of the slow job runs (1.5 s) and p2 has
                // its lock, so that p2 has that fire's trigger advanced and not its commit: only the recovery fires it
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> count(p2,
                        "SELECT count(*) FROM shedlock WHERE name LIKE 'onebeat:" + ReplicaMain.SLOW_JOB
                                + "%' AND lock_until > timezone('utc', CURRENT_TIMESTAMP) + interval '2 seconds'") > 0);
                p2.stop();
                Instant stopped = Instant.now();
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() ->
                        count(p1, "SELECT count(*) FROM onebeat_fire WHERE job_name = 'tock-2s' AND fired_at > '"
                                + stopped + "'") >= 2);
                Map<Fire, Set<String>> onP1 = fires(p1);
                p1.killPostmaster();
                p2.start();
                Set<Fire> onP2 = fires(p2).keySet();
                p2.promote();
                Instant promoted = Instant.now();
                Map<Fire, Set<String>> lost = new HashMap<>(onP1);
                lost.keySet().removeAll(onP2);
                assertThat(lost).as("fires committed on p1 alone").hasSizeGreaterThanOrEqualTo(2);

                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                    Map<Fire, Set<String>> now = fires(p2);
                    assertThat(now.keySet()).as(() -> "the lost fires, fired again; " + dump(p2, stopped))
                            .containsAll(lost.keySet());
                    lost.forEach((fire, keys) -> assertThat(now.get(fire)).as(fire + ": its keys").isEqualTo(keys));
                    for (String job : JOBS) {
                        assertThat(count(p2, "SELECT count(*) FROM onebeat_fire WHERE job_name = '" + job
                                + "' AND scheduled_at > '" + promoted.plusSeconds(4) + "'"))
                                .as(job + ": fires after the promotion, no replica restarted")
                                .isGreaterThanOrEqualTo(2);
                    }
                    assertThat(count(p2, "SELECT count(*) FROM onebeat_task WHERE status <> 'published'"))
                            .as("tasks not published").isZero();
                });
                Set<String> delivered = new HashSet<>();
                hooks.requests("/ticks").forEach(request -> delivered.add(request.key()));
                lost.values().forEach(keys -> assertThat(delivered).containsAll(keys));
                // a lost instant the trigger on p2 had not passed yet is fired late by the schedule itself; one it had
                // passed only by the failover recovery
                List<String> kinds = kinds(p2, lost.keySet());
                assertThat(kinds).as("how the lost fires committed again").isSubsetOf("scheduled", "recovery");
                // the earliest lost fire of the slow job is the one that ran when p2 stopped
                Set<Fire> passed = lost.keySet().stream().filter(fire -> fire.job().equals(ReplicaMain.SLOW_JOB))
                        .min(Comparator.comparing(Fire::at)).map(Set::of).orElse(Set.of());
                assertThat(passed).as("the slow fire running when p2 stopped, committed on p1 alone").isNotEmpty();
                assertThat(kinds(p2, passed)).as("its trigger had passed it on p2").containsOnly("recovery");
                assertThat(count(p2, """
                        SELECT count(*) FROM onebeat_fire f JOIN onebeat_fire g ON g.job_name = f.job_name
                          AND g.scheduled_at = f.scheduled_at AND g.run_id = f.run_id AND g.ctid <> f.ctid"""))
                        .as("fires committed twice").isZero();
                String viewer = SecurityTestUsers.token("viewer");
                for (String job : JOBS) {
                    Instant first = onP1.keySet().stream().filter(fire -> fire.job().equals(job)).map(Fire::at)
                            .min(Instant::compareTo).orElseThrow();
                    List<DatabaseFaults.Judged> judged = DatabaseFaults.instants(api, viewer, job, first,
                            promoted.plusSeconds(4));
                    assertThat(judged).as(job + ": every instant of the run, each with its outcome")
                            .allSatisfy(instant -> assertThat(instant.accounted()).as(instant.toString()).isTrue());
                    assertThat(judged).as(job + ": the lost instants, committed")
                            .filteredOn(instant -> lost.containsKey(new Fire(job, instant.instant())))
                            .allSatisfy(instant -> assertThat(instant.outcome()).isIn("on-time", "late"));
                }
                assertThat(health(api, viewer)).as("health of replica-1")
                        .contains("\"databaseServer\"").contains("\"changes\":1");
                assertThat(replicas.countLogLines("database server changed")).isEqualTo(2);
                assertThat(replicas.countLogLines(
                        "lost fires after the database server change handed back to fire again as recoveries"))
                        .isGreaterThanOrEqualTo(2);
                long resumedMillis = count(p2, "SELECT (extract(epoch FROM min(fired_at) - '" + promoted
                        + "'::timestamptz) * 1000)::bigint FROM onebeat_fire WHERE fired_at > '" + promoted + "'");
                System.out.printf("failover reconcile: first fire %d ms after the promotion; lost on p1 %d fires %s, "
                                + "committed again as %s; stranded records recovered: %d log lines; republished keys: "
                                + "%d; attempts after the standby stopped:%n%s",
                        resumedMillis, lost.size(), lost.keySet(), kinds,
                        replicas.countLogLines("stranded fire records of this replica recovered"),
                        hooks.requests("/ticks").size() - delivered.size(), dump(p2, stopped));
            }
        }
    }

    private static String[] arguments(WebhookServer hooks) {
        return new String[] {
                "--onebeat.jobs[0].name=tick-1s", "--onebeat.jobs[0].every=1s", "--onebeat.jobs[0].task=tick",
                "--onebeat.jobs[0].queue=ticks",
                "--onebeat.jobs[1].name=tock-2s", "--onebeat.jobs[1].every=2s", "--onebeat.jobs[1].task=tock",
                "--onebeat.jobs[1].queue=ticks",
                "--onebeat.relay.brokers.hooks.type=http", "--onebeat.relay.brokers.hooks.url=" + hooks.baseUrl(),
                "--onebeat.relay.queues.ticks.transport=http", "--onebeat.relay.queues.ticks.broker=hooks",
                "--onebeat.relay.queues.ticks.options.path=ticks",
                "--onebeat.relay.queues.slow.transport=http", "--onebeat.relay.queues.slow.broker=hooks",
                "--onebeat.relay.queues.slow.options.path=ticks",
                "--onebeat.failover.check-interval=1s", "--onebeat.failover.stranded-after=3s",
                "--onebeat.failover.sweep-interval=1s"};
    }

    private static Map<Fire, Set<String>> fires(PrivatePostgres node) throws SQLException {
        Map<Fire, Set<String>> fires = new HashMap<>();
        try (Connection connection = node.connect(DATABASE); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("""
                     SELECT f.job_name, f.scheduled_at, t.idempotency_key FROM onebeat_fire f
                     LEFT JOIN onebeat_task t ON t.job_name = f.job_name AND t.scheduled_at = f.scheduled_at
                     WHERE f.run_id = ''""")) {
            while (rows.next()) {
                Set<String> keys = fires.computeIfAbsent(new Fire(rows.getString(1), rows.getTimestamp(2).toInstant()),
                        fire -> new HashSet<>());
                if (rows.getString(3) != null) {
                    keys.add(rows.getString(3));
                }
            }
        }
        return fires;
    }

    private static List<String> kinds(PrivatePostgres node, Set<Fire> fires) throws SQLException {
        List<String> kinds = new ArrayList<>();
        try (Connection connection = node.connect(DATABASE)) {
            for (Fire fire : fires) {
                try (var statement = connection.prepareStatement(
                        "SELECT trigger_kind FROM onebeat_fire WHERE job_name = ? AND scheduled_at = ? "
                                + "AND run_id = ''")) {
                    statement.setString(1, fire.job());
                    statement.setTimestamp(2, Timestamp.from(fire.at()));
                    try (ResultSet rows = statement.executeQuery()) {
                        while (rows.next()) {
                            kinds.add(rows.getString(1));
                        }
                    }
                }
            }
        }
        return kinds;
    }

    private static String health(String api, String bearer) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(api + "/actuator/health"))
                        .header("Authorization", "Bearer " + bearer).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        return response.body();
    }

    private static String dump(PrivatePostgres node, Instant since) {
        StringBuilder text = new StringBuilder();
        try (Connection connection = node.connect(DATABASE); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT job_name, scheduled_at, outcome, reason, trigger_kind, "
                     + "node FROM onebeat_fire_attempt WHERE scheduled_at > '" + since.minusSeconds(5)
                     + "' ORDER BY scheduled_at")) {
            while (rows.next()) {
                text.append(rows.getString(1)).append(' ').append(rows.getTimestamp(2).toInstant()).append(' ')
                        .append(rows.getString(3)).append(' ').append(rows.getString(4)).append(' ')
                        .append(rows.getString(5)).append(' ').append(rows.getString(6)).append('\n');
            }
        } catch (SQLException e) {
            text.append(e);
        }
        return text.toString();
    }

    private static long count(PrivatePostgres node, String sql) {
        try (Connection connection = node.connect(DATABASE); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            return -1;
        }
    }
}
