package dev.onebeat.scheduler.engine.fire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.job.Jobs;
import dev.onebeat.job.OverlapPolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.SchedulerIT;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Three jobs written in code fire every 2 s and each fire runs 5 s, two and a half periods, under each
 * overlap policy. Each fire notes when it ran; the ledger and the attempts say what each instant became.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@SchedulerIT
class OverlapPolicyIT {

    private static final Duration EVERY = Duration.ofSeconds(2);
    private static final Duration RUNS = Duration.ofMillis(5000);
    /** How late a fire may start after its instant, or after the run it waited for, and still count as prompt. */
    private static final Duration PROMPT = Duration.ofMillis(1500);
    /**
     * How near a run's end an instant may fall and find the lock either way: a fire's outcome is written and its lock
     * released after its body ends (seen: 130 ms on a loaded 2-core VM, whose first fire started 1 s late and so
     * ended 10 ms before the next free instant). Runs end about 1 s before their next free instant when they start
     * on time, so every instant is held to its exact outcome unless a fire started half a second late.
     */
    private static final Duration END_SLACK = Duration.ofMillis(500);
    private static final int INSTANTS = 11;
    static final Map<String, Queue<Run>> RUNS_BY_JOB = new ConcurrentHashMap<>();

    record Run(Instant instant, Instant start, Instant end) {
    }


    @TestConfiguration
    static class SlowJobs {
        @Bean
        PeriodicJob skipping() {
            return slow("slow-skip", OverlapPolicy.SKIP);
        }

        @Bean
        PeriodicJob buffering() {
            return slow("slow-buffer-one", OverlapPolicy.BUFFER_ONE);
        }

        @Bean
        PeriodicJob allowing() {
            return slow("slow-allow", OverlapPolicy.ALLOW);
        }

        private static PeriodicJob slow(String name, OverlapPolicy policy) {
            Queue<Run> runs = RUNS_BY_JOB.computeIfAbsent(name, key -> new ConcurrentLinkedQueue<>());
            return Jobs.periodic(name, Schedule.every(EVERY)).overlapPolicy(policy).execute(context -> {
                Instant start = Instant.now();
                Thread.sleep(RUNS.toMillis());
                runs.add(new Run(context.scheduledAt(), start, Instant.now()));
            });
        }
    }

    @Autowired
    JdbcClient jdbc;

    @BeforeAll
    void runForElevenInstants() {
        // every instant of each job's window settled, a waiting one included
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1))
                .until(() -> List.of("slow-skip", "slow-buffer-one", "slow-allow").stream().allMatch(job -> {
                    Map<Instant, String> outcomes = outcomes(job);
                    return !outcomes.isEmpty() && instants(job, outcomes).stream().allMatch(outcomes::containsKey);
                }));
    }

    @Test
    void skipRunsOneFireAtATimeAndSkipsEveryInstantThatFindsOneRunning() {
        List<Run> runs = runs("slow-skip");
        Map<Instant, String> outcomes = window("slow-skip");

        assertThat(runs).as("never two at once").isSortedAccordingTo(Comparator.comparing(Run::start));
        for (int i = 1; i < runs.size(); i++) {
            assertThat(runs.get(i).start()).isAfterOrEqualTo(runs.get(i - 1).end());
        }
        assertThat(runs).as("no fire waits").allSatisfy(run ->
                assertThat(run.start()).isBefore(run.instant().plus(PROMPT)));
        outcomes.forEach((instant, outcome) -> {
            // the fire holds the job's lock from before its body starts until after it has written its outcome,
            // and the next instant asks for the lock a little after it falls due: an instant that falls within
            // END_SLACK of a body's end may find the lock held or free, and either outcome is right for it
            if (runs.stream().anyMatch(run -> Duration.between(run.end(), instant).abs().compareTo(END_SLACK) < 0)) {
                assertThat(outcome).as("instant %s, at a run's end", instant)
                        .isIn("committed", "skipped: previous fire still running");
                System.out.printf("overlap policy, slow-skip: instant %s within %s of a run's end, %s%n", instant,
                        END_SLACK, outcome);
                return;
            }
            boolean running = runs.stream().anyMatch(run -> !run.instant().equals(instant)
                    && run.start().isBefore(instant) && run.end().isAfter(instant));
            assertThat(outcome).as("instant %s", instant)
                    .isEqualTo(running ? "skipped: previous fire still running" : "committed");
        });
        assertThat(outcomes.values()).contains("committed", "skipped: previous fire still running");
    }

    @Test
    void bufferOneRunsTheFirstWaitingInstantWhenTheRunningFireEndsAndSkipsTheOthers() {
        List<Run> runs = runs("slow-buffer-one");
        Map<Instant, String> outcomes = window("slow-buffer-one");

        for (int i = 1; i < runs.size(); i++) {
            Run previous = runs.get(i - 1);
            Run next = runs.get(i);
            assertThat(next.start()).as("never two at once").isAfterOrEqualTo(previous.end());
            if (next.instant().isBefore(previous.end())) {
                assertThat(next.start()).as("a waiting instant fires when the running one ends")
                        .isBefore(previous.end().plus(PROMPT));
            }
        }
        assertThat(outcomes.values()).containsOnly("committed", "skipped: previous fire still running")
                .contains("skipped: previous fire still running");
        long committed = outcomes.values().stream().filter("committed"::equals).count();
        long skipped = outcomes.size() - committed;
        // with a fire taking 2.5 periods one waiting instant is kept per fire: more fire than under skip
        assertThat(committed).isGreaterThan(window("slow-skip").values().stream().filter("committed"::equals).count());
        assertThat(skipped).isPositive();
    }

    @Test
    void allowFiresEveryInstantOnceWithFiresRunningSideBySide() {
        List<Run> runs = runs("slow-allow");
        Map<Instant, String> outcomes = window("slow-allow");

        assertThat(outcomes.values()).containsOnly("committed");
        assertThat(runs).as("fires of the job ran at once")
                .anySatisfy(run -> assertThat(runs).anyMatch(other -> other != run
                        && other.start().isBefore(run.end()) && other.end().isAfter(run.start())));
        assertThat(runs.stream().map(Run::instant).distinct().count()).isEqualTo(runs.size());
        assertThat(jdbc.sql("SELECT count(*) FROM shedlock WHERE name LIKE 'onebeat:slow-allow@%'").query(Long.class)
                .single()).as("the locks of instants that ended are gone").isLessThanOrEqualTo(3);
    }

    /** @return the job's first {@value #INSTANTS} instants */
    private static List<Instant> instants(String job, Map<Instant, String> outcomes) {
        Instant first = outcomes.keySet().stream().min(Comparator.naturalOrder()).orElseThrow();
        return IntStream.range(0, INSTANTS).mapToObj(i -> first.plus(EVERY.multipliedBy(i))).toList();
    }

    /** @return each instant of the first {@value #INSTANTS} of the job, with its one outcome */
    private Map<Instant, String> window(String job) {
        Map<Instant, String> outcomes = outcomes(job);
        List<Instant> instants = instants(job, outcomes);
        instants.forEach(instant -> assertThat(outcomes).as(job + ": an outcome for " + instant).containsKey(instant));
        System.out.printf("overlap policy, %s: %s%n", job, instants.stream().map(outcomes::get)
                .collect(java.util.stream.Collectors.groupingBy(outcome -> outcome, java.util.TreeMap::new,
                        java.util.stream.Collectors.counting())));
        return instants.stream().collect(java.util.stream.Collectors.toMap(instant -> instant, outcomes::get,
                (a, b) -> a, java.util.TreeMap::new));
    }

    private Map<Instant, String> outcomes(String job) {
        Map<Instant, String> outcomes = new ConcurrentHashMap<>();
        jdbc.sql("""
                        SELECT scheduled_at, 'committed' FROM onebeat_fire WHERE job_name = ? AND run_id = ''
                        UNION ALL
                        SELECT scheduled_at, 'skipped: ' || reason FROM onebeat_fire_attempt
                        WHERE job_name = ? AND outcome = 'skipped'""")
                .params(job, job)
                .query((rs, row) -> Map.entry(rs.getTimestamp(1).toInstant(), rs.getString(2))).list()
                .forEach(entry -> assertThat(outcomes.put(entry.getKey(), entry.getValue()))
                        .as("%s at %s has one outcome", job, entry.getKey()).isNull());
        return outcomes;
    }

    private List<Run> runs(String job) {
        List<Instant> instants = instants(job, outcomes(job));
        return RUNS_BY_JOB.get(job).stream().filter(run -> instants.contains(run.instant()))
                .sorted(Comparator.comparing(Run::start)).toList();
    }

}
