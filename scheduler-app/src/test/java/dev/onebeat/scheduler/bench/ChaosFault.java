package dev.onebeat.scheduler.bench;

import java.util.Arrays;
import java.util.stream.Collectors;

/** A fault a chaos run inflicts at seeded random moments; its name is how {@code --faults} spells it. */
public enum ChaosFault {

    /** {@code kill -9} of a random replica's JVM, launched again at once. */
    REPLICA_KILL("replica-kill"),
    /** {@code pg_terminate_backend} of every session of the database, a few rounds over 1–3 s. */
    SESSIONS("sessions"),
    /** {@code kill -9} of the broker (Redis), started again on the same data 1–4 s later. */
    BROKER("broker"),
    /** PostgreSQL stopped ({@code pg_ctl stop -m fast}) and started again 1–4 s later; private server only. */
    POSTGRES_RESTART("postgres-restart");

    private final String option;

    ChaosFault(String option) {
        this.option = option;
    }

    public String option() {
        return option;
    }

    /** @throws IllegalArgumentException naming {@code --faults} and the value when no fault is called so */
    static ChaosFault of(String option) {
        return Arrays.stream(values()).filter(fault -> fault.option.equals(option)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("--faults: '" + option + "' is not one of "
                        + Arrays.stream(values()).map(ChaosFault::option).collect(Collectors.joining(", "))));
    }
}
