package dev.onebeat.worker;

import java.util.Locale;
import java.util.Objects;

/**
 * The one rule for text bound for a {@code VARCHAR(n)} column of the worker tables, the same in the
 * Python package ({@code onebeat/_checks.py}), so that a value one side accepts the other accepts too
 * and PostgreSQL stores it unchanged:
 * <ul>
 *   <li>not blank, blank meaning {@link String#isBlank()} ({@link Character#isWhitespace(int)});</li>
 *   <li>at most {@code n} characters counted as PostgreSQL counts {@code VARCHAR(n)} in a UTF8
 *       database: Unicode code points. An emoji counts one, although {@link String#length()} counts
 *       it two;</li>
 *   <li>no NUL (PostgreSQL text cannot hold one) and no unpaired surrogate: the JDBC driver would
 *       send a {@code ?} in its place, storing another value than the one given, one that may be
 *       another message's key.</li>
 * </ul>
 * Public for the kit's own packages; applications need not call it.
 */
public final class ColumnText {

    /** How many characters of a refused value its message shows. */
    private static final int SHOWN = 40;

    private ColumnText() {
    }

    /**
     * @param field the name the message gives the value
     * @param value the text to check
     * @param maxCharacters the column's {@code n}, in Unicode code points; {@link Integer#MAX_VALUE}
     *     for a {@code TEXT} column
     * @return {@code value}
     * @throws NullPointerException naming the field if {@code value} is null
     * @throws IllegalArgumentException naming the field, the limit and the unit if the value breaks the rule
     */
    public static String require(String field, String value, int maxCharacters) {
        Objects.requireNonNull(value, field + " must not be null");
        if (value.isBlank()) {
            throw new IllegalArgumentException(field + " must not be blank, was '" + value + "'");
        }
        int characters = value.codePointCount(0, value.length());
        if (characters > maxCharacters) {
            throw new IllegalArgumentException(field + " must be at most " + maxCharacters
                    + " characters (Unicode code points, as PostgreSQL counts VARCHAR), was " + characters
                    + ": '" + shown(value) + "'");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\0') {
                throw new IllegalArgumentException(field + " must not contain a NUL character, was '"
                        + shown(value) + "'");
            }
            boolean pair = Character.isHighSurrogate(c) && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1));
            if (pair) {
                i++; // a pair: one character beyond U+FFFF
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException(field + " must not contain an unpaired surrogate (U+"
                        + Integer.toHexString(c).toUpperCase(Locale.ROOT) + "), which UTF-8 cannot encode, was '"
                        + shown(value) + "'");
            }
        }
        return value;
    }

    private static String shown(String value) {
        int characters = value.codePointCount(0, value.length());
        return characters <= SHOWN ? value : value.substring(0, value.offsetByCodePoints(0, SHOWN)) + "...";
    }
}
