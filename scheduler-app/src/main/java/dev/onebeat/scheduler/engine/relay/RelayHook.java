package dev.onebeat.scheduler.engine.relay;

/**
 * Called between a batch's publish and its marks. The crash tests stop a relay there; production
 * uses {@link #NONE}.
 */
@FunctionalInterface
public interface RelayHook {

    /** Does nothing. */
    RelayHook NONE = published -> { };

    /**
     * @param published tasks the broker confirmed in this round, not yet marked
     * @throws InterruptedException if the relay is stopping
     */
    void afterPublish(int published) throws InterruptedException;
}
