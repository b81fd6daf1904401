package dev.onebeat.scheduler.web.ui;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Puts a validation message next to the form field it is about. The scheduler's messages start with
 * the field's name ({@code cron: '61 * * * *' is not a valid ...}, {@code cron, every: set exactly
 * one ...}), the same words start-up uses; a message naming no field of the form goes to the form.
 */
final class FieldErrors {

    /** The key of a message that belongs to no single field. */
    static final String FORM = "form";

    private FieldErrors() {
    }

    /**
     * @param message the validation message
     * @param fields the form's field names
     * @return field name → message, one entry per field named (the whole message each time)
     */
    static Map<String, String> of(String message, Set<String> fields) {
        Map<String, String> errors = new LinkedHashMap<>();
        int colon = message.indexOf(": ");
        if (colon > 0) {
            for (String named : message.substring(0, colon).split(",")) {
                // configuration spells lockAtMostFor lock-at-most-for, retryAttempts retry.attempts
                String key = normal(named);
                fields.stream().filter(field -> normal(field).equals(key)).findFirst()
                        .ifPresent(field -> errors.put(field, message.substring(colon + 2)));
            }
        }
        if (errors.isEmpty()) {
            errors.put(FORM, message);
        }
        return errors;
    }

    private static String normal(String name) {
        // calendars.exclude[1] is the calendarsExclude field
        return name.strip().replaceAll("\\[\\d+]", "").replace("-", "").replace(".", "").toLowerCase(Locale.ROOT);
    }
}
