package dev.onebeat.job;

import java.time.Duration;
import java.util.Objects;

/**
 * Builds {@link PeriodicJob}s without writing a class:
 *
 * <pre>{@code
 * PeriodicJob job = Jobs.periodic("invoice-reminders", Schedule.unixCron("0 8 * * MON-FRI", ZoneId.of("Europe/Paris")))
 *         .lockAtMostFor(Duration.ofMinutes(5))
 *         .execute(ctx -> ctx.dispatch(TaskRequest.of("send_reminder", "emails")));
 * }</pre>
 */
public final class Jobs {

    private Jobs() {
    }

    /**
     * Starts a job definition.
     *
     * @param name the job's unique name
     * @param schedule when it fires
     * @return a builder; {@link Builder#execute} finishes it
     */
    public static Builder periodic(String name, Schedule schedule) {
        return new Builder(name, schedule);
    }

    /** Collects the optional parts of a job; each call returns this builder. */
    public static final class Builder {
        private final String name;
        private final Schedule schedule;
        private MisfirePolicy misfirePolicy = MisfirePolicy.FIRE_ONCE_NOW;
        private Duration lockAtMostFor = PeriodicJob.DEFAULT_LOCK_AT_MOST_FOR;
        private RetryPolicy retry = RetryPolicy.DEFAULT;
        private Duration catchUpWindow = PeriodicJob.DEFAULT_CATCH_UP_WINDOW;
        private int maxCatchUp = PeriodicJob.DEFAULT_MAX_CATCH_UP;
        private OverlapPolicy overlapPolicy = OverlapPolicy.BUFFER_ONE;
        private AlertPolicy alerts = AlertPolicy.DEFAULT;
        private Duration jitter = Duration.ZERO;
        private Duration spread = Duration.ZERO;
        private CalendarPolicy calendars = CalendarPolicy.NONE;
        private String namespace = PeriodicJob.DEFAULT_NAMESPACE;

        private Builder(String name, Schedule schedule) {
            this.name = JobNames.requireValid(name);
            this.schedule = Objects.requireNonNull(schedule, "schedule must not be null");
        }

        /**
         * @param policy what to do about missed instants
         * @return this builder
         */
        public Builder misfirePolicy(MisfirePolicy policy) {
            this.misfirePolicy = Objects.requireNonNull(policy, "misfirePolicy must not be null");
            return this;
        }

        /**
         * @param duration see {@link PeriodicJob#lockAtMostFor()}; must be positive
         * @return this builder
         */
        public Builder lockAtMostFor(Duration duration) {
            Objects.requireNonNull(duration, "lockAtMostFor must not be null");
            if (duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException("lockAtMostFor must be positive, was " + duration);
            }
            this.lockAtMostFor = duration;
            return this;
        }

        /**
         * @param policy see {@link PeriodicJob#retry()}
         * @return this builder
         */
        public Builder retry(RetryPolicy policy) {
            this.retry = Objects.requireNonNull(policy, "retry must not be null");
            return this;
        }

        /**
         * @param window see {@link PeriodicJob#catchUpWindow()}; must be positive
         * @return this builder
         */
        public Builder catchUpWindow(Duration window) {
            Objects.requireNonNull(window, "catchUpWindow must not be null");
            if (window.isNegative() || window.isZero()) {
                throw new IllegalArgumentException("catchUpWindow must be positive, was " + window);
            }
            this.catchUpWindow = window;
            return this;
        }

        /**
         * @param instants see {@link PeriodicJob#maxCatchUp()}; at least 1
         * @return this builder
         */
        public Builder maxCatchUp(int instants) {
            if (instants < 1) {
                throw new IllegalArgumentException("maxCatchUp must be at least 1, was " + instants);
            }
            this.maxCatchUp = instants;
            return this;
        }

        /**
         * @param policy see {@link PeriodicJob#overlapPolicy()}
         * @return this builder
         */
        public Builder overlapPolicy(OverlapPolicy policy) {
            this.overlapPolicy = Objects.requireNonNull(policy, "overlapPolicy must not be null");
            return this;
        }

        /**
         * @param policy see {@link PeriodicJob#alerts()}
         * @return this builder
         */
        public Builder alerts(AlertPolicy policy) {
            this.alerts = Objects.requireNonNull(policy, "alerts must not be null");
            return this;
        }

        /**
         * @param jitter see {@link PeriodicJob#jitter()}; zero or positive
         * @return this builder
         */
        public Builder jitter(Duration jitter) {
            this.jitter = notNegative("jitter", jitter);
            return this;
        }

        /**
         * @param spread see {@link PeriodicJob#spread()}; zero or positive
         * @return this builder
         */
        public Builder spread(Duration spread) {
            this.spread = notNegative("spread", spread);
            return this;
        }

        /**
         * @param policy see {@link PeriodicJob#calendars()}
         * @return this builder
         */
        public Builder calendars(CalendarPolicy policy) {
            this.calendars = Objects.requireNonNull(policy, "calendars must not be null");
            return this;
        }

        /**
         * @param namespace see {@link PeriodicJob#namespace()}
         * @return this builder
         * @throws IllegalArgumentException if it is not 1 to 63 lower-case letters, digits and inner hyphens
         */
        public Builder namespace(String namespace) {
            this.namespace = JobNames.requireValidNamespace(namespace);
            return this;
        }

        private static Duration notNegative(String field, Duration value) {
            Objects.requireNonNull(value, field + " must not be null");
            if (value.isNegative()) {
                throw new IllegalArgumentException(field + " must not be negative, was " + value);
            }
            return value;
        }

        /**
         * @param body the work of one fire
         * @return the finished, immutable job
         */
        public PeriodicJob execute(JobBody body) {
            return new DefinedJob(name, schedule, misfirePolicy, lockAtMostFor, retry, catchUpWindow, maxCatchUp,
                    overlapPolicy, alerts, jitter, spread, calendars, namespace,
                    Objects.requireNonNull(body, "body must not be null"));
        }
    }

    private record DefinedJob(String name, Schedule schedule, MisfirePolicy misfirePolicy,
                              Duration lockAtMostFor, RetryPolicy retry, Duration catchUpWindow, int maxCatchUp,
                              OverlapPolicy overlapPolicy, AlertPolicy alerts, Duration jitter, Duration spread,
                              CalendarPolicy calendars, String namespace, JobBody body)
            implements PeriodicJob {
        @Override
        public void run(JobContext context) throws Exception {
            body.run(context);
        }
    }
}
