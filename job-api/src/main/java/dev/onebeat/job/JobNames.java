package dev.onebeat.job;

/**
 * The one rule for job names, shared by every way of defining a job. The length is counted as
 * {@link String#length()} counts it, in UTF-16 code units: a character beyond U+FFFF (an emoji) counts
 * two. The importer counts the same way, and {@code VARCHAR(150)}, which counts code points, always
 * holds such a name.
 */
final class JobNames {

    /** In UTF-16 code units. */
    static final int MAX_LENGTH = 150;

    /** How many UTF-16 units of an overlong name its message shows, one fewer rather than half an emoji. */
    private static final int SHOWN = 40;

    private JobNames() {
    }

    static String requireValid(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name must not be blank, was '" + name + "'");
        }
        if (name.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("name must be at most " + MAX_LENGTH + " UTF-16 code units (a "
                    + "character beyond U+FFFF, such as an emoji, counts two), was " + name.length() + " units: '"
                    + start(name) + "...'");
        }
        if (!name.strip().equals(name) || name.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException(
                    "name must not have surrounding blanks or control characters, was '" + name + "'");
        }
        return name;
    }

    /** The first {@link #SHOWN} units of an overlong name, or one fewer if the last would split a surrogate pair. */
    private static String start(String name) {
        int end = Character.isHighSurrogate(name.charAt(SHOWN - 1)) ? SHOWN - 1 : SHOWN;
        return name.substring(0, end);
    }
}
