package dev.onebeat.job;

/** The one rule for job names, shared by every way of defining a job. */
final class JobNames {

    static final int MAX_LENGTH = 150;

    private JobNames() {
    }

    static String requireValid(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name must not be blank, was '" + name + "'");
        }
        if (name.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("name must be at most " + MAX_LENGTH + " characters, was "
                    + name.length() + ": '" + name.substring(0, 40) + "...'");
        }
        if (!name.strip().equals(name) || name.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException(
                    "name must not have surrounding blanks or control characters, was '" + name + "'");
        }
        return name;
    }
}
