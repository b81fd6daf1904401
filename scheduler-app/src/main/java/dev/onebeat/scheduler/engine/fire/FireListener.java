package dev.onebeat.scheduler.engine.fire;

/** Told about each committed fire, after its commit (the relay uses it to wake up). */
public interface FireListener {

    /** @param result a committed fire; called on the firing thread, so keep it short */
    void committed(FireResult result);
}
