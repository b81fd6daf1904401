package dev.onebeat.scheduler.transport.celery;

import java.math.BigDecimal;
import java.util.Iterator;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Python's {@code repr} of decoded JSON, for Celery's {@code argsrepr} and {@code kwargsrepr}
 * headers. Workers only log these, so a near match (and Celery's 1024-character cap) is enough.
 */
final class PythonRepr {

    static final int MAX_LENGTH = 1024;
    private static final String ELLIPSIS = "...";

    private PythonRepr() {
    }

    /** The args list as the tuple Celery passes to the task: {@code (1,)} for one element. */
    static String ofArgs(JsonNode args) {
        StringBuilder out = new StringBuilder("(");
        appendElements(out, args.iterator());
        if (args.size() == 1) {
            out.append(',');
        }
        return capped(out.append(')'));
    }

    static String of(JsonNode value) {
        StringBuilder out = new StringBuilder();
        append(out, value);
        return capped(out);
    }

    private static String capped(StringBuilder out) {
        if (out.length() <= MAX_LENGTH) {
            return out.toString();
        }
        int end = MAX_LENGTH - ELLIPSIS.length();
        if (Character.isHighSurrogate(out.charAt(end - 1))) {
            end--;
        }
        return out.substring(0, end) + ELLIPSIS;
    }

    private static void append(StringBuilder out, JsonNode value) {
        if (value.isNull()) {
            out.append("None");
        } else if (value.isBoolean()) {
            out.append(value.booleanValue() ? "True" : "False");
        } else if (value.isIntegralNumber()) {
            out.append(value.bigIntegerValue());
        } else if (value.isNumber()) {
            out.append(pythonFloat(value.doubleValue()));
        } else if (value.isString()) {
            appendString(out, value.stringValue());
        } else if (value.isArray()) {
            appendElements(out.append('['), value.iterator());
            out.append(']');
        } else if (value.isObject()) {
            out.append('{');
            String separator = "";
            for (Map.Entry<String, JsonNode> entry : value.properties()) {
                appendString(out.append(separator), entry.getKey());
                append(out.append(": "), entry.getValue());
                separator = ", ";
            }
            out.append('}');
        } else {
            throw new IllegalArgumentException("not a JSON value: " + value);
        }
    }

    private static void appendElements(StringBuilder out, Iterator<JsonNode> elements) {
        String separator = "";
        while (elements.hasNext()) {
            append(out.append(separator), elements.next());
            separator = ", ";
        }
    }

    /** Python's float repr: shortest round-trip digits, positional between 1e-4 and 1e16. */
    static String pythonFloat(double value) {
        if (value == 0) {
            return 1 / value < 0 ? "-0.0" : "0.0";
        }
        BigDecimal decimal = new BigDecimal(Double.toString(value)).stripTrailingZeros();
        double magnitude = Math.abs(value);
        if (magnitude >= 1e-4 && magnitude < 1e16) {
            String plain = decimal.toPlainString();
            return plain.indexOf('.') < 0 ? plain + ".0" : plain;
        }
        String digits = decimal.unscaledValue().abs().toString();
        int exponent = digits.length() - 1 - decimal.scale();
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        return (value < 0 ? "-" : "") + mantissa + "e" + (exponent < 0 ? "-" : "+")
                + (Math.abs(exponent) < 10 ? "0" : "") + Math.abs(exponent);
    }

    private static void appendString(StringBuilder out, String text) {
        // Python prefers single quotes, switching only when the text holds ' and no "
        char quote = text.indexOf('\'') >= 0 && text.indexOf('"') < 0 ? '"' : '\'';
        out.append(quote);
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            i += Character.charCount(codePoint);
            switch (codePoint) {
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (codePoint == quote) {
                        out.append('\\').append(quote);
                    } else if (printable(codePoint)) {
                        out.appendCodePoint(codePoint);
                    } else if (codePoint < 0x100) {
                        out.append(String.format("\\x%02x", codePoint));
                    } else if (codePoint < 0x10000) {
                        out.append(String.format("\\u%04x", codePoint));
                    } else {
                        out.append(String.format("\\U%08x", codePoint));
                    }
                }
            }
        }
        out.append(quote);
    }

    /** Python's {@code str.isprintable}: not a control, format, surrogate, private, unassigned or non-space separator. */
    private static boolean printable(int codePoint) {
        if (codePoint == ' ') {
            return true;
        }
        return switch (Character.getType(codePoint)) {
            case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE, Character.UNASSIGNED,
                 Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR, Character.SPACE_SEPARATOR -> false;
            default -> true;
        };
    }
}
