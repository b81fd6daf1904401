package dev.onebeat.worker.retention;

/**
 * Rows deleted by one purge, per table.
 *
 * @param journal entries of {@code onebeat_processed}
 * @param tasks finished rows of {@code onebeat_task} (published, done, dead)
 * @param effects finished rows of {@code onebeat_effect} (sent, dead)
 */
public record Purged(long journal, long tasks, long effects) {

    public Purged {
        if (journal < 0 || tasks < 0 || effects < 0) {
            throw new IllegalArgumentException("counts must not be negative, were journal=" + journal
                    + " tasks=" + tasks + " effects=" + effects);
        }
    }

    /** @return rows deleted from all tables */
    public long total() {
        return journal + tasks + effects;
    }
}
