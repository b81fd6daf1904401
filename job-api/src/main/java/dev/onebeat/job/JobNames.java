package dev.onebeat.job;

import java.util.regex.Pattern;

/**
 * The rules for job names and namespaces, shared by every way of defining a job. The length is counted as
 * {@link String#length()} counts it, in UTF-16 code units: a character beyond U+FFFF (an emoji) counts
 * two. The importer counts the same way, and {@code VARCHAR(150)}, which counts code points, always
 * holds such a name.
 */
final class JobNames {

    /** A namespace: a DNS label, as Kubernetes names its namespaces, so it fits a URL, a metric label and a file. */
    private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");

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

    static String requireValidNamespace(String namespace) {
        if (namespace == null || !NAMESPACE.matcher(namespace).matches()) {
            throw new IllegalArgumentException("namespace must be 1 to 63 lower-case letters, digits and hyphens, "
                    + "starting and ending with a letter or digit, was '" + namespace + "'");
        }
        return namespace;
    }

    /** The first {@link #SHOWN} units of an overlong name, or one fewer if the last would split a surrogate pair. */
    private static String start(String name) {
        int end = Character.isHighSurrogate(name.charAt(SHOWN - 1)) ? SHOWN - 1 : SHOWN;
        return name.substring(0, end);
    }
}
