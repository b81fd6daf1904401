package dev.onebeat.transport.dramatiq;

import dev.onebeat.transport.internal.pickle.PythonRepr;
import java.util.List;
import java.util.Map;

/**
 * Writes values as Python's {@code json.dumps(value, separators=(",", ":"))} does, byte for byte:
 * ASCII only, other characters as lowercase {@code \}{@code uXXXX} UTF-16 escapes, floats as
 * Python's repr.
 */
final class PythonJson {

    private PythonJson() {
    }

    static String dumps(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Boolean b) {
            out.append(b ? "true" : "false");
        } else if (value instanceof Double || value instanceof Float) {
            out.append(floatText(((Number) value).doubleValue()));
        } else if (value instanceof Number n) {
            out.append(n);
        } else if (value instanceof String s) {
            writeString(s, out);
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                out.append(i > 0 ? "," : "");
                write(list.get(i), out);
            }
            out.append(']');
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                out.append(first ? "" : ",");
                first = false;
                writeString(String.valueOf(entry.getKey()), out);
                out.append(':');
                write(entry.getValue(), out);
            }
            out.append('}');
        } else {
            throw new IllegalArgumentException("value has type " + value.getClass().getName() + ", which has no JSON form here");
        }
    }

    private static String floatText(double value) {
        // json.dumps writes the non-finite floats as these JavaScript names, not as repr's nan/inf
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "Infinity" : "-Infinity";
        }
        return PythonRepr.ofFloat(value);
    }

    private static void writeString(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
