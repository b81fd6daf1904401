package dev.onebeat.scheduler.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.FaultInjection;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.transport.testing.WebhookServer.Answer;
import dev.onebeat.transport.testing.WebhookServer.Request;
import dev.onebeat.transport.testing.WebhookServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Two replica JVMs fire a job every 4 s; both are stopped across several of its instants, then one is started
 * again. Each instant of the outage (fired late past its grace, or not at all) is reported missed once (one event, one webhook alert, accepted after a 503 under
 * the same key), and the first success after it is reported as the job's recovery.
 */
@FaultInjection
@ExtendWith(PostgresExtension.class)
class OutageAlertsIT {

    private static final String JOB = "tick-4s";

    @Test
    void everyInstantOfAnOutageIsAlertedMissedOnceAndTheNextSuccessRecovers(TestDatabase database) throws Exception {
        JdbcClient jdbc = JdbcClient.create(database.dataSource());
        try (WebhookServer server = new WebhookServer()
                .on("/hooks", (request, attempt) -> Answer.of(attempt == 1 ? 503 : 200));
             Replicas replicas = new Replicas(database, "outage-alerts")) {
            String[] arguments = {"--onebeat.jobs[0].name=" + JOB, "--onebeat.jobs[0].every=4s",
                    "--onebeat.jobs[0].task=tick", "--onebeat.jobs[0].misfire=skip-missed",
                    "--onebeat.jobs[0].alerts.grace=1s", "--onebeat.monitor.check-interval=1s",
                    // one event per missed instant however long a loaded machine takes to start the replica again
                    // (past 10 in one check, the rest would be reported as one event)
                    "--onebeat.monitor.max-events-per-check=100",
                    "--onebeat.alerts.webhook.url=" + server.baseUrl() + "/hooks", "--onebeat.relay.retry-initial=200ms"};
            replicas.start("replica-1", "none", arguments);
            replicas.start("replica-2", "none", arguments);
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500)).until(() ->
                    count(jdbc, "SELECT count(*) FROM onebeat_fire") >= 2 && count(jdbc, """
                            SELECT count(*) FROM onebeat_job_monitor m WHERE NOT alerting AND checked_until >= (
                                SELECT max(scheduled_at) FROM onebeat_fire f WHERE f.job_name = m.job_name)""") == 1);
            // the replicas' first fires may begin late while they start: what the outage brings is judged after them

            replicas.stop("replica-1");
            replicas.stop("replica-2");
            List<Instant> before = committed(jdbc);
            Instant lastBefore = before.get(before.size() - 1);
            // the outage: two of the job's instants and their grace pass with no replica up
            await().atMost(Duration.ofSeconds(30)).until(() -> Instant.now().isAfter(lastBefore.plusSeconds(9)));
            replicas.start("replica-1", "none", arguments);
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500)).until(() ->
                    count(jdbc, "SELECT count(*) FROM onebeat_job_event WHERE kind = 'recovered' AND scheduled_at > '"
                            + lastBefore + "'") == 1
                            && count(jdbc, "SELECT count(*) FROM onebeat_task WHERE queue = 'onebeat.alerts'"
                            + " AND status <> 'published'") == 0);

            // a replica coming back fires the instants of the last minute late (inside Quartz's misfire threshold):
            // those began past their grace and are missed too; the job recovers with the first that began in time
            Instant firstAfter = jdbc.sql("""
                            SELECT min(scheduled_at) FROM onebeat_fire WHERE job_name = ? AND run_id = '' AND scheduled_at > ?
                              AND fired_at <= scheduled_at + interval '1 second'""")
                    .params(JOB, java.sql.Timestamp.from(lastBefore)).query((rs, row) -> rs.getTimestamp(1).toInstant())
                    .single();
            List<Instant> outage = jdbc.sql("""
                            SELECT generate_series(?::timestamptz + interval '4 seconds', ?::timestamptz - interval '4 seconds',
                                                   interval '4 seconds')""")
                    .params(java.sql.Timestamp.from(lastBefore), java.sql.Timestamp.from(firstAfter))
                    .query((rs, row) -> rs.getTimestamp(1).toInstant()).list();
            List<Map<String, Object>> events = jdbc.sql("""
                            SELECT scheduled_at, kind, alerted FROM onebeat_job_event WHERE job_name = ? AND scheduled_at > ?
                            ORDER BY scheduled_at, kind""").params(JOB, java.sql.Timestamp.from(lastBefore))
                    .query().listOfRows();
            Map<String, List<Request>> alerts = server.requests("/hooks").stream()
                    .filter(request -> Instant.parse(request.header("Onebeat-Scheduled-At")).isAfter(lastBefore))
                    .collect(Collectors.groupingBy(Request::key));
            System.out.printf("outage alerts: last fire before %s, first after %s, missed %s, events %d, webhook "
                    + "requests %d%n", lastBefore, firstAfter, outage, events.size(), server.requests("/hooks").size());

            assertThat(outage).as("instants of the outage").hasSizeGreaterThanOrEqualTo(2);
            assertThat(events).filteredOn(row -> row.get("kind").equals("missed"))
                    .extracting(row -> ((java.sql.Timestamp) row.get("scheduled_at")).toInstant())
                    .as("each instant of the outage missed once").containsExactlyElementsOf(outage);
            assertThat(events).filteredOn(row -> row.get("kind").equals("recovered"))
                    .extracting(row -> ((java.sql.Timestamp) row.get("scheduled_at")).toInstant())
                    .containsExactly(firstAfter);
            assertThat(alerts).as("one alert per event").hasSize(events.size());
            assertThat(alerts.values()).allSatisfy(requests -> {
                assertThat(requests).as("a 503, then the same alert accepted").hasSize(2);
                assertThat(requests.get(0).body()).isEqualTo(requests.get(1).body());
            });
        }
    }

    private static List<Instant> committed(JdbcClient jdbc) {
        return jdbc.sql("SELECT scheduled_at FROM onebeat_fire WHERE job_name = ? AND run_id = '' ORDER BY scheduled_at")
                .param(JOB).query((rs, row) -> rs.getTimestamp(1).toInstant()).list();
    }

    private static long count(JdbcClient jdbc, String sql) {
        try {
            return jdbc.sql(sql).query(Long.class).single();
        } catch (RuntimeException e) {
            // the tables are not there until a replica has migrated the database
            return -1;
        }
    }
}
