package dev.onebeat.scheduler.engine.fire;

/**
 * The run a fire belongs to: {@code null} for the schedule's own fires, the request id for a run
 * outside it ("trigger now"), which has a ledger slot and task keys of its own.
 */
final class FireRun {

    private FireRun() {
    }

    /** @return the {@code run_id} column's value: empty for the schedule's fires */
    static String column(String run) {
        return run == null ? "" : run;
    }

    /** @return the run of a {@code run_id} column's value */
    static String of(String column) {
        return column == null || column.isEmpty() ? null : column;
    }
}
