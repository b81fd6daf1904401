package dev.onebeat.worker.journal;

/**
 * A cheap check in front of the journal that drops obvious duplicates before a database
 * transaction is opened. It is only a hint: the journal stays the authority, so a filter that is
 * unsure, empty or unreachable must answer "not seen" and let the database decide.
 *
 * <p>Implementations must not throw; {@link RedisDuplicateFilter} logs and falls through.
 */
public interface DuplicateFilter {

    /** Consults nothing: every delivery goes to the journal. */
    DuplicateFilter NONE = new DuplicateFilter() {
        @Override
        public boolean seen(String consumer, String key) {
            return false;
        }

        @Override
        public void markProcessed(String consumer, String key) {
        }
    };

    /**
     * @return true only if the key is known to be committed as processed by the consumer
     */
    boolean seen(String consumer, String key);

    /**
     * Remembers a key whose journal entry is committed. Called only after the commit: marking
     * earlier would make a redelivery of a rolled-back or crashed attempt look processed, and the
     * work would be lost.
     */
    void markProcessed(String consumer, String key);
}
