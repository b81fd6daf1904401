package dev.onebeat.scheduler.boot.migration;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Every statement on {@code onebeat_applied_changelog}: the changelog a replica last applied in full, by its
 * {@link ChangelogDigest}, beside a digest of Liquibase's {@code databasechangelog} right after. What Liquibase would
 * do at a start depends on the changelog and its parameters and settings (in the {@code ChangelogDigest}) and on the
 * changesets recorded as run: their ids, authors, files, checksums and how they ended ({@code EXECUTED},
 * {@code MARK_RAN} …, in the digest of {@code databasechangelog}). Changelogs whose preconditions could make a
 * start's outcome depend on anything else have no digest. So a replica whose changelog has the recorded digest, on a
 * database whose {@code databasechangelog} is as recorded, would find nothing to do. A changelog that differs, or a
 * changeset run, removed, or its checksum rewritten since (by any replica or by hand), and Liquibase runs. Both
 * tables are looked up in the session's current schema, where Liquibase puts its own.
 */
final class AppliedChangelog {

    private static final String TABLE_PRESENT = """
            SELECT to_regclass(format('%I.onebeat_applied_changelog', current_schema())) IS NOT NULL
                   AND to_regclass(format('%I.databasechangelog', current_schema())) IS NOT NULL
            """;

    // every column Liquibase compares when it decides, in the order the changesets ran; a row's text form quotes its
    // values, so no value can pass for two
    private static final String CHANGESETS_DIGEST = """
            md5(coalesce(string_agg(row(id, author, filename, md5sum, exectype)::text, E'\\n'
                                    ORDER BY orderexecuted, id, author, filename), ''))""";

    private static final String CHANGESETS = "SELECT count(*), " + CHANGESETS_DIGEST + " FROM databasechangelog";

    private static final String READ = """
            SELECT changelog_digest, changesets, changesets_digest FROM onebeat_applied_changelog WHERE id = 1
            """;

    private static final String RECORD = """
            INSERT INTO onebeat_applied_changelog (id, changelog, changelog_digest, changesets, changesets_digest,
                                                   applied_by, applied_at)
            SELECT 1, ?, ?, count(*),\s""" + CHANGESETS_DIGEST + """
            , ?, now() FROM databasechangelog
            ON CONFLICT (id) DO UPDATE SET changelog = excluded.changelog, changelog_digest = excluded.changelog_digest,
                changesets = excluded.changesets, changesets_digest = excluded.changesets_digest,
                applied_by = excluded.applied_by, applied_at = excluded.applied_at
            """;

    private AppliedChangelog() {
    }

    /**
     * @param changelogDigest this replica's changelog's {@link ChangelogDigest}
     * @return whether that changelog was applied in full and {@code databasechangelog} is as it was right after
     */
    static boolean unchanged(Connection connection, String changelogDigest) throws SQLException {
        if (!tablesPresent(connection)) {
            return false;
        }
        String recordedDigest;
        long recordedCount;
        String recordedChangesets;
        try (PreparedStatement read = connection.prepareStatement(READ); ResultSet row = read.executeQuery()) {
            if (!row.next()) {
                return false;
            }
            recordedDigest = row.getString(1);
            recordedCount = row.getLong(2);
            recordedChangesets = row.getString(3);
        }
        if (!recordedDigest.equals(changelogDigest)) {
            return false;
        }
        Changesets now = changesets(connection);
        return now.count() == recordedCount && now.digest().equals(recordedChangesets);
    }

    /**
     * Records {@code changelogDigest} as applied, with {@code databasechangelog} as it is now; nothing when the table is
     * not there (a changelog of the user's own that does not include onebeat's).
     */
    static void record(Connection connection, String changeLog, String changelogDigest, String appliedBy)
            throws SQLException {
        if (!tablesPresent(connection)) {
            return;
        }
        try (PreparedStatement record = connection.prepareStatement(RECORD)) {
            record.setString(1, truncate(changeLog, 500));
            record.setString(2, changelogDigest);
            record.setString(3, truncate(appliedBy, 200));
            record.executeUpdate();
        }
    }

    private static boolean tablesPresent(Connection connection) throws SQLException {
        try (PreparedStatement present = connection.prepareStatement(TABLE_PRESENT);
             ResultSet row = present.executeQuery()) {
            row.next();
            return row.getBoolean(1);
        }
    }

    private static Changesets changesets(Connection connection) throws SQLException {
        try (PreparedStatement read = connection.prepareStatement(CHANGESETS); ResultSet row = read.executeQuery()) {
            row.next();
            return new Changesets(row.getLong(1), row.getString(2));
        }
    }

    private static String truncate(String text, int length) {
        return text.length() <= length ? text : text.substring(0, length);
    }

    private record Changesets(long count, String digest) {
    }
}
