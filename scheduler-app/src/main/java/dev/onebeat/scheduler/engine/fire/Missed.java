package dev.onebeat.scheduler.engine.fire;

import dev.onebeat.scheduler.engine.schedule.ScheduledInstant;
import java.util.List;
import java.util.Objects;

/**
 * The instants a schedule's fire settles besides its own: after a misfire, those missed since the
 * schedule last fired; and wall-clock times a daylight-saving gap removes under {@code gap=skip}.
 *
 * @param passedOver oldest first: missed instants, all earlier than the fire's own, and times skipped in a gap
 *     ({@link ScheduledInstant#fires()} false), which may also be the times up to the schedule's next instant
 * @param afterMisfire whether this is the one fire that follows a misfire, whose jobs' misfire policies decide
 *     what of the missed instants fires
 * @param latestMissed whether the fire's own instant had already passed when Quartz fired it (false when a fire
 *     after a misfire happens to come less than the fire lead before an instant, which is then on time)
 * @param unrecorded missed instants older than those listed: counted and logged, not recorded one by one
 */
public record Missed(List<ScheduledInstant> passedOver, boolean afterMisfire, boolean latestMissed, long unrecorded) {

    /** A fire on time with nothing to settle but its own instant. */
    public static final Missed NONE = new Missed(List.of(), false, false, 0);

    /** Copies the list; rejects a negative count. */
    public Missed {
        passedOver = List.copyOf(Objects.requireNonNull(passedOver, "passedOver must not be null"));
        if (unrecorded < 0) {
            throw new IllegalArgumentException("unrecorded must not be negative, was " + unrecorded);
        }
    }
}
