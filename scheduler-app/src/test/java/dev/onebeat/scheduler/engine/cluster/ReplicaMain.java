package dev.onebeat.scheduler.engine.cluster;

import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.RetryPolicy;
import dev.onebeat.job.Schedule;
import dev.onebeat.job.TaskRequest;
import dev.onebeat.scheduler.OnebeatApplication;
import dev.onebeat.scheduler.engine.fire.FireListener;
import dev.onebeat.scheduler.engine.quartz.QuartzTriggers;
import java.time.Duration;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.JobListener;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.quartz.autoconfigure.SchedulerFactoryBeanCustomizer;
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
    /**
     * System property choosing the jobs: {@code fanout} (default), {@code slow}, {@code none} (runtime jobs
     * only), {@code dst} ({@link DaylightSavingJobs}) or {@code extra} (a job written in code, {@value #EXTRA_JOB}).
     */
    static final String JOB_PROPERTY = "replica.job";
    /**
     * The job of mode {@code flaky}: every 10 s, one task, three attempts 15-30 s apart; it fails on a
     * replica started with {@code -D}{@value #FAIL_PROPERTY}{@code =true}.
     */
    static final String FLAKY_JOB = "flaky-10s";
    static final String FAIL_PROPERTY = "replica.fail";
    /** The job of mode {@code extra}: every 3 s, one task. */
    static final String EXTRA_JOB = "extra-3s";

    private ReplicaMain() {
    }

    public static void main(String[] args) {
        ShiftedZones.registerIfAsked();
        String mode = System.getProperty(JOB_PROPERTY, "fanout");
        Class<?> jobs = switch (mode) {
            case "none" -> NoJob.class;
            case "slow" -> SlowJob.class;
            case "dst" -> DaylightSavingJobs.class;
            case "extra" -> ExtraJob.class;
            case "flaky" -> FlakyJob.class;
            default -> FanOutJob.class;
        };
        SpringApplication.run(new Class<?>[] {OnebeatApplication.class, jobs, PauseHooks.class}, args);
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

    static class NoJob {
    }

    static class FlakyJob {

        @Bean
        PeriodicJob flakyEveryTenSeconds() {
            boolean fail = Boolean.getBoolean(FAIL_PROPERTY);
            return Jobs.periodic(FLAKY_JOB, Schedule.every(Duration.ofSeconds(10)))
                    .retry(new RetryPolicy(3, Duration.ofSeconds(30), Duration.ofSeconds(30)))
                    .execute(ctx -> {
                        if (fail) {
                            throw new IllegalStateException("this replica fails " + FLAKY_JOB);
                        }
                        ctx.dispatch(TaskRequest.builder("flaky.tick").queue("flaky").entity("day", 1).build());
                    });
        }
    }

    static class ExtraJob {

        @Bean
        PeriodicJob extraEveryThreeSeconds() {
            return Jobs.periodic(EXTRA_JOB, Schedule.every(Duration.ofSeconds(3)))
                    .lockAtMostFor(Duration.ofSeconds(5))
                    .execute(ctx -> ctx.dispatch(TaskRequest.of("extra.tick", "extra")));
        }
    }

    /** The {@link PausePoint}s of the JVM side of a fire: before the job runs, after a fire committed. */
    static class PauseHooks {

        @Bean
        FireListener pauseAfterCommit() {
            return result -> PausePoint.reach("after-commit");
        }

        @Bean
        SchedulerFactoryBeanCustomizer pauseBeforeFire() {
            return factory -> factory.setGlobalJobListeners(new JobListener() {
                @Override
                public String getName() {
                    return "pause-before-fire";
                }

                @Override
                public void jobToBeExecuted(JobExecutionContext context) {
                    if (context.getTrigger().getKey().getGroup().equals(QuartzTriggers.SCHEDULE_GROUP)) {
                        PausePoint.reach("before-fire");
                    }
                }

                @Override
                public void jobExecutionVetoed(JobExecutionContext context) {
                }

                @Override
                public void jobWasExecuted(JobExecutionContext context, JobExecutionException error) {
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
