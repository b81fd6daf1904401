package dev.onebeat.scheduler.cluster;

import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.job.TaskRequest;
import dev.onebeat.scheduler.OnebeatApplication;
import java.time.Duration;
import org.springframework.boot.SpringApplication;
import org.springframework.context.annotation.Bean;

/**
 * One scheduler replica for the multi-process tests: the real application plus a job that fires
 * every second and fans out to 100 entities. Started as a separate JVM by {@link Replicas}.
 */
public final class ReplicaMain {

    static final String JOB = "fanout-1s";
    static final int ENTITIES = 100;
    /** A job that fires every 2 s and runs for 1.5 s, so a replica can be killed in the middle of a fire. */
    static final String SLOW_JOB = "slow-2s";
    static final int SLOW_ENTITIES = 10;
    /** System property choosing the job: {@code fanout} (default), {@code slow} or {@code none} (runtime jobs only). */
    static final String JOB_PROPERTY = "replica.job";

    private ReplicaMain() {
    }

    public static void main(String[] args) {
        String mode = System.getProperty(JOB_PROPERTY, "fanout");
        Class<?>[] sources = switch (mode) {
            case "none" -> new Class<?>[] {OnebeatApplication.class};
            case "slow" -> new Class<?>[] {OnebeatApplication.class, SlowJob.class};
            default -> new Class<?>[] {OnebeatApplication.class, FanOutJob.class};
        };
        SpringApplication.run(sources, args);
    }

    // deliberately not @Configuration: component scanning of in-JVM tests must not pick this job up
    static class FanOutJob {

        @Bean
        PeriodicJob fanOutEverySecond() {
            return Jobs.periodic(JOB, Schedule.every(Duration.ofSeconds(1)))
                    .lockAtMostFor(Duration.ofSeconds(2))
                    .execute(ctx -> {
                        for (int i = 0; i < ENTITIES; i++) {
                            ctx.dispatch(TaskRequest.builder("fanout.process").queue("fanout").entity("account", i)
                                    .build());
                        }
                    });
        }
    }

    static class SlowJob {

        @Bean
        PeriodicJob slowEveryTwoSeconds() {
            return Jobs.periodic(SLOW_JOB, Schedule.every(Duration.ofSeconds(2)))
                    .lockAtMostFor(Duration.ofSeconds(3))
                    .execute(ctx -> {
                        for (int i = 0; i < SLOW_ENTITIES; i++) {
                            ctx.dispatch(TaskRequest.builder("slow.process").queue("slow").entity("account", i).build());
                        }
                        Thread.sleep(1500);
                    });
        }
    }
}
