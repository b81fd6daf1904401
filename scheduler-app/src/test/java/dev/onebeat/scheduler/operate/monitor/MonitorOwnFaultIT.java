package dev.onebeat.scheduler.operate.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.engine.fire.FireFaults;
import dev.onebeat.scheduler.operate.monitor.MonitorTable.Event;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A check of the missed-fire detector on a replica whose own fires could not reach the database within the last
 * {@link FireFaults#LINGER}: the other replicas may hold periods they could not write yet, so a miss that no written
 * period explains waits. A class of its own: the replica's period lasts 30 s of real time, and would hold the misses
 * of any other test of its context.
 */
@SchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED,
        "onebeat.monitor.enabled=false", "onebeat.jobs[0].name=steady", "onebeat.jobs[0].every=60s",
        "onebeat.jobs[0].task=t", "onebeat.jobs[0].alerts.grace=10s"})
class MonitorOwnFaultIT {

    /** A round minute well after the job was stored; far from the replica's period, which is in the present. */
    private static final Instant BASE = Instant.parse("2027-06-01T00:00:00Z");

    @Autowired
    MonitorCheck check;
    @Autowired
    FireFaults faults;

    @Test
    void aMissWaitsWhileTheDetectorsOwnReplicaHasAFaultPeriodNotOver() {
        check.run(BASE.plusSeconds(1), "n1");
        Instant m1 = BASE.plusSeconds(60);
        Instant graceEnds = m1.plusSeconds(10);
        faults.failed(FireFaults.Stage.QUARTZ, "n1", new SQLException("terminating connection"));
        // written, so that the check runs: the period is in the present, nowhere near the instant's window
        await().atMost(Duration.ofSeconds(10)).until(() -> !faults.unwritten());

        List<Event> held = check.run(graceEnds.plusSeconds(1), "n1").events();
        List<Event> judged = check.run(graceEnds.plus(MonitorCheck.FAULT_SETTLE), "n1").events();

        assertThat(faults.faulting()).as("the replica's period, until 30 s after its failure").isTrue();
        assertThat(held).isEmpty();
        assertThat(judged).extracting(Event::instant, Event::kind, Event::reason)
                .containsExactly(tuple(m1, "missed", "no fire began by " + graceEnds + " (grace PT10S)"));
    }
}
