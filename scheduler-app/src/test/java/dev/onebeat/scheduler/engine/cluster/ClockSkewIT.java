package dev.onebeat.scheduler.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.onebeat.scheduler.FaultInjection;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.testsupport.jvm.Faketime;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Two scheduler JVMs on one database, one of them under libfaketime with its clock ahead, changed while it runs (a
 * timestamp file libfaketime reads again every second): +3 s, within {@code onebeat.cluster.max-clock-skew=4s}, then
 * +5 s, beyond it, then +3 s again. The replica ahead fires alone first, replica-1 while the other is on hold, the
 * replica ahead again once replica-1 stops. The job fires every second and fans out to 100 entities.
 */
@FaultInjection
@ExtendWith(PostgresExtension.class)
class ClockSkewIT {

    private static final String[] ARGUMENTS = {"--onebeat.cluster.max-clock-skew=4s",
            "--onebeat.cluster.clock-check-interval=1s"};
    private static final Pattern SKEW_AT_START = Pattern.compile("database time minus replica time = (-?\\d+) ms");

    @Test
    void aReplicaAheadFiresNothingEarlyDeclaresNoPeerDeadAndHoldsFiringWhileBeyondTheMaximum(TestDatabase database)
            throws Exception {
        assumeTrue(Faketime.installed(),
                "libfaketime is not installed (Debian package faketime: /usr/bin/faketime and its library)");
        Ledger ledger = new Ledger(database.dataSource());
        JdbcClient jdbc = JdbcClient.create(database.dataSource());
        Instant settled;
        try (Replicas replicas = new Replicas(database, "clock-skew")) {
            Path skew = replicas.logDir().resolve("skew");
            Files.writeString(skew, "+3s\n");
            // The job's one trigger stays with the replica that fires it (it takes the next instant as it commits
            // one), so each phase gives the trigger to one replica on purpose: the replica ahead starts alone, and
            // fires its first fires (100 tasks each, its clock calls slowed by libfaketime: they may outlast a second,
            // and the overlap policy then skips an instant, with its reason, which is not what this test is about)
            replicas.start("skewed", "fanout", Map.of(), Faketime.offsetFrom(skew), ARGUMENTS);
            // a loaded CI machine takes minutes to start a Spring Boot JVM
            await().atMost(Duration.ofMinutes(15)).pollInterval(Duration.ofMillis(500))
                    .until(() -> firesBy(ledger, "skewed", Instant.MIN) >= 3);
            assertThat(skewAtStart(replicas)).as("the replica under libfaketime sees its clock 3 s ahead")
                    .isBetween(-3500L, -2500L);
            replicas.start("replica-1", "fanout", ARGUMENTS);
            await().atMost(Duration.ofMinutes(15)).pollInterval(Duration.ofMillis(500))
                    .until(() -> ledger.clusterSize() == 2);
            String skewedUrl = replicas.baseUrl("skewed");
            assertThat(replicas.logged("skewed", "firing on hold")).as("held within the maximum").isFalse();

            // beyond the maximum: fires it had taken before the hold still fire, on time by the database's clock;
            // then replica-1 takes the trigger, and once its own first fires are done it fires every instant
            Files.writeString(skew, "+5s\n");
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                    .until(() -> replicas.logged("skewed", "firing on hold"));
            Instant heldAt = Instant.now();
            assertThat(health(skewedUrl)).as("health while on hold").contains("OUT_OF_SERVICE");
            Instant afterInFlight = heldAt.plusSeconds(7);
            await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(500))
                    .until(() -> firesBy(ledger, "replica-1", afterInFlight) >= 3);
            settled = Instant.now();
            await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(500))
                    .until(() -> ledger.firesScheduledAfter(settled) >= 3);
            assertThat(firesBy(ledger, "skewed", afterInFlight)).as("fires of the replica on hold").isZero();

            Files.writeString(skew, "+3s\n");
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                    .until(() -> replicas.logged("skewed", "firing resumed"));
            assertThat(health(skewedUrl)).contains("\"UP\"");
            // judged by its own clock, the replica ahead saw replica-1's check-ins as 3-5 s old and declared it dead
            // every second; replica-1 may still declare it dead on a machine so loaded that its check-ins stall
            assertThat(replicas.logLines("skewed", "failed or restarted instances"))
                    .as("Quartz on the replica ahead declared no live replica dead").isEmpty();

            // back in service, the replica ahead fires again: replica-1, stopped, hands the trigger back
            replicas.stop("replica-1");
            Instant aloneFrom = Instant.now();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                    .until(() -> firesBy(ledger, "skewed", aloneFrom) >= 3);
        }

        ledger.assertEverySecondFiredExactlyOnceWithAllTasks(settled);
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE fired_at < scheduled_at").query(Long.class).single())
                .as("fires begun before their instant by the database's clock").isZero();
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_task WHERE created_at < scheduled_at").query(Long.class)
                .single()).as("tasks created before their instant by the database's clock").isZero();
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE trigger_kind = 'recovery'").query(Long.class)
                .single()).as("recoveries of fires of a live replica").isZero();
        System.out.printf("clock skew: fires=%d byNode=%s%n", ledger.fires().size(), Ledger.firesByNode(ledger.fires()));
    }

    private static long firesBy(Ledger ledger, String node, Instant after) {
        return ledger.fires().stream().filter(fire -> fire.node().equals(node) && fire.scheduledAt().isAfter(after))
                .count();
    }

    /** @return the skew the replica logged at start-up, in milliseconds (database minus replica) */
    private static long skewAtStart(Replicas replicas) {
        return await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200))
                .until(() -> replicas.logLines("skewed", "database time minus replica time").stream()
                        .map(SKEW_AT_START::matcher).filter(Matcher::find).map(m -> Long.parseLong(m.group(1)))
                        .findFirst().orElse(null), value -> value != null);
    }

    /** @return the anonymous answer of the replica's health: its status only */
    private static String health(String baseUrl) throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(baseUrl + "/actuator/health")).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        return response.statusCode() + " " + response.body();
    }
}
