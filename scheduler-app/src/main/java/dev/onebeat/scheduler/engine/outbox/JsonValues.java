package dev.onebeat.scheduler.engine.outbox;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;
import java.util.Map;

/** Checks that task arguments are plain JSON values PostgreSQL can store before they are serialized. */
public final class JsonValues {

    private JsonValues() {
    }

    /**
     * @param path where the value sits, for the message ({@code args[2]}, {@code kwargs.user})
     * @param value the value to check
     * @throws IllegalArgumentException naming the path and the offending type
     */
    public static void requireJson(String path, Object value) {
        if (value instanceof String text) {
            requireStorable(path, text);
            return;
        }
        if (value == null || value instanceof Boolean
                || value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte
                || value instanceof BigInteger || value instanceof BigDecimal) {
            return;
        }
        if (value instanceof Double d) {
            requireFinite(path, d);
            return;
        }
        if (value instanceof Float f) {
            requireFinite(path, f.doubleValue());
            return;
        }
        if (value instanceof Collection<?> list) {
            int i = 0;
            for (Object element : list) {
                requireJson(path + "[" + i++ + "]", element);
            }
            return;
        }
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (!(entry.getKey() instanceof String key)) {
                    throw new IllegalArgumentException(path + ": map key " + entry.getKey() + " is not a string");
                }
                requireStorable(path + "." + key + " (its name)", key);
                requireJson(path + "." + key, entry.getValue());
            }
            return;
        }
        throw new IllegalArgumentException(path + ": a " + value.getClass().getName()
                + " is not a JSON value (use strings, numbers, booleans, null, lists and maps)");
    }

    /**
     * @param path where the text sits, for the message
     * @param text a name or value bound for the outbox
     * @throws IllegalArgumentException if it holds a NUL character, which PostgreSQL's text and jsonb cannot store
     */
    public static void requireStorable(String path, String text) {
        int nul = text.indexOf('\u0000');
        if (nul >= 0) {
            throw new IllegalArgumentException(path + ": holds a NUL character (\\u0000, at index " + nul
                    + "), which PostgreSQL cannot store");
        }
    }

    private static void requireFinite(String path, double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(path + ": " + value + " is not a JSON number");
        }
    }
}
