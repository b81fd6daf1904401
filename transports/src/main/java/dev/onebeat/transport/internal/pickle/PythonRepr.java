package dev.onebeat.transport.internal.pickle;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;

/**
 * Python's {@code repr} of the values {@link PickleWriter} accepts, for text a worker shows or
 * compares: RQ's job description, Celery's {@code argsrepr} and {@code kwargsrepr}, and the floats of
 * Python's {@code json.dumps}.
 */
public final class PythonRepr {

    private PythonRepr() {
    }

    /**
     * @param value a value in the pickle subset
     * @return what {@code repr(value)} prints in Python 3
     */
    public static String of(Object value) {
        if (value == null) {
            return "None";
        } else if (value instanceof Boolean b) {
            return b ? "True" : "False";
        } else if (value instanceof Double || value instanceof Float || value instanceof BigDecimal) {
            // a JSON number with a fraction or exponent, read as BigDecimal, is a float to Python
            return ofFloat(((Number) value).doubleValue());
        } else if (value instanceof Number n) {
            return n.toString();
        } else if (value instanceof String s) {
            return ofString(s);
        } else if (value instanceof PythonTuple t) {
            return t.items().size() == 1 ? "(" + of(t.items().get(0)) + ",)" : join("(", t.items(), ")");
        } else if (value instanceof List<?> l) {
            return join("[", l, "]");
        } else if (value instanceof Map<?, ?> m) {
            StringBuilder out = new StringBuilder("{");
            m.forEach((k, v) -> out.append(out.length() > 1 ? ", " : "").append(of(k)).append(": ").append(of(v)));
            return out.append('}').toString();
        }
        throw new IllegalArgumentException("value has type " + value.getClass().getName() + ", not in the subset");
    }

    /**
     * @param value a finite or special double
     * @return Python's shortest round-trip repr: plain from 1e-4 up to 1e16, else {@code 1e+16} style
     */
    public static String ofFloat(double value) {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        if (value == 0) {
            return 1 / value < 0 ? "-0.0" : "0.0";
        }
        BigDecimal exact = shortestRoundTrip(value);
        String digits = exact.unscaledValue().abs().toString();
        int exponent = digits.length() - 1 - exact.scale();
        String sign = value < 0 ? "-" : "";
        if (exponent >= -4 && exponent < 16) {
            String plain = exact.abs().toPlainString();
            return sign + (plain.contains(".") ? plain : plain + ".0");
        }
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        String exp = String.format("%02d", Math.abs(exponent));
        return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + exp;
    }

    // Python's repr picks the fewest significant digits that read back as the same double; JDK 17's
    // Double.toString does not always, so search the precision instead
    private static BigDecimal shortestRoundTrip(double value) {
        BigDecimal exact = new BigDecimal(value);
        for (int digits = 1; digits < 17; digits++) {
            BigDecimal rounded = exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
            if (rounded.doubleValue() == value) {
                return rounded.stripTrailingZeros();
            }
        }
        return exact.round(new MathContext(17, RoundingMode.HALF_EVEN)).stripTrailingZeros();
    }

    private static String ofString(String s) {
        // Python prefers single quotes, switching only when the text holds ' and no "
        char quote = s.indexOf('\'') >= 0 && s.indexOf('"') < 0 ? '"' : '\'';
        StringBuilder out = new StringBuilder(s.length() + 2).append(quote);
        s.codePoints().forEach(c -> {
            if (c == '\\') {
                out.append("\\\\");
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '\t') {
                out.append("\\t");
            } else if (c == quote) {
                out.append('\\').append(quote);
            } else if (printable(c)) {
                out.appendCodePoint(c);
            } else if (c < 0x100) {
                out.append(String.format("\\x%02x", c));
            } else if (c < 0x10000) {
                out.append(String.format("\\u%04x", c));
            } else {
                out.append(String.format("\\U%08x", c));
            }
        });
        return out.append(quote).toString();
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

    private static String join(String open, List<?> items, String close) {
        StringBuilder out = new StringBuilder(open);
        for (int i = 0; i < items.size(); i++) {
            out.append(i > 0 ? ", " : "").append(of(items.get(i)));
        }
        return out.append(close).toString();
    }
}
