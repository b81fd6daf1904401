package dev.onebeat.worker.journal;

import dev.onebeat.worker.ColumnText;

/**
 * Limits of the journal's columns, checked before a statement so the error names the value. Counted
 * in Unicode code points, as the {@code VARCHAR} columns and the Python package count them.
 */
final class JournalKeys {

    /** {@code onebeat_processed.consumer VARCHAR(200)}. */
    static final int MAX_CONSUMER = 200;
    /** {@code onebeat_processed.idempotency_key VARCHAR(320)}. */
    static final int MAX_KEY = 320;

    private JournalKeys() {
    }

    static String consumer(String consumer) {
        return ColumnText.require("consumer", consumer, MAX_CONSUMER);
    }

    static String key(String key) {
        return ColumnText.require("key", key, MAX_KEY);
    }
}
