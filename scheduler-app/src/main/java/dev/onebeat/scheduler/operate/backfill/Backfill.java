package dev.onebeat.scheduler.operate.backfill;

import java.time.Instant;

/**
 * A backfill of a range of a job's instants, and how far it got.
 *
 * @param id its id
 * @param job the job
 * @param from the range's start, inclusive
 * @param to the range's end, exclusive
 * @param state {@code running}, {@code done} or {@code cancelled}
 * @param total the schedule's instants in the range (times a daylight-saving gap removes not counted)
 * @param done how many of them were handled: fired, or found committed already
 * @param fired how many this backfill fired and committed
 * @param failed how many it fired and failed (each then follows the job's retry policy)
 * @param cursor the last instant handled, or null before the first
 * @param createdBy who started it
 * @param createdAt when
 * @param updatedAt when it last moved on
 */
public record Backfill(long id, String job, Instant from, Instant to, String state, int total, int done, int fired,
                       int failed, Instant cursor, String createdBy, Instant createdAt, Instant updatedAt) {

    /** A backfill that has not ended. */
    public static final String RUNNING = "running";
    /** A backfill that handled every instant of its range. */
    public static final String DONE = "done";
    /** A backfill an operator stopped. */
    public static final String CANCELLED = "cancelled";

    /** @return the share done, 0 to 100 */
    public int percent() {
        return total == 0 ? 100 : (int) (100L * done / total);
    }
}
