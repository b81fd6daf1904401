package dev.onebeat.scheduler.engine.outbox;

/** Decides which queues a fire may dispatch to; checked before a task is written. */
public interface QueuePolicy {

    /** Every queue is accepted; unrouted queues stay in the in-database queue. */
    QueuePolicy ANY = queue -> { };

    /**
     * @param queue a task's queue
     * @throws IllegalArgumentException naming the queue when it may not be used; the fire rolls back
     */
    void requireRouted(String queue);
}
