package dev.onebeat.worker.journal;

import java.util.Objects;

/** Limits of the journal's columns, checked before a statement so the error names the value. */
final class JournalKeys {

    static final int MAX_CONSUMER = 200;
    static final int MAX_KEY = 320;

    private JournalKeys() {
    }

    static String consumer(String consumer) {
        return checked("consumer", consumer, MAX_CONSUMER);
    }

    static String key(String key) {
        return checked("key", key, MAX_KEY);
    }

    private static String checked(String field, String value, int max) {
        Objects.requireNonNull(value, field + " must not be null");
        if (value.isBlank()) {
            throw new IllegalArgumentException(field + " must not be blank, was '" + value + "'");
        }
        if (value.length() > max) {
            throw new IllegalArgumentException(field + " must be at most " + max + " characters, was "
                    + value.length() + ": '" + value.substring(0, 40) + "...'");
        }
        return value;
    }
}
