package dev.onebeat.scheduler.bench;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The runtime jobs the listing benchmark loads: {@code count} rows of {@code onebeat_runtime_job},
 * as the admin API would have stored them, named {@code <domain>.<action>-<number>} so that each of
 * the 100 {@code <domain>.<action>} pairs matches 1 % of the names.
 *
 * <p>Schedules are mixed and far away, so that nothing fires while the pages are timed: half are
 * 5-field crons on the 1st of January in four zones, half intervals of 30, 60 or 90 days, which
 * onebeat aligns to multiples of the interval since the epoch.
 */
final class ListedJobs {

    static final List<String> DOMAINS = List.of("billing", "crm", "inventory", "reports", "mail", "search",
            "payments", "shipping", "catalog", "identity");
    static final List<String> ACTIONS = List.of("sync", "export", "cleanup", "reindex", "remind", "rollup",
            "archive", "notify", "refresh", "audit");
    private static final List<String> ZONES = List.of("UTC", "Europe/Paris", "America/New_York", "Asia/Tokyo");
    private static final int ROWS_PER_STATEMENT = 2000;

    private final int count;

    ListedJobs(int count) {
        this.count = count;
    }

    String name(int index) {
        return DOMAINS.get(index % DOMAINS.size()) + "." + ACTIONS.get(index / DOMAINS.size() % ACTIONS.size())
                + String.format(Locale.ROOT, "-%05d", index);
    }

    /** @return a search matching 1 % of the names (as many as {@code count} allows), the {@code pick}-th of 100 */
    static String onePercentQuery(int pick) {
        int pair = Math.floorMod(pick, DOMAINS.size() * ACTIONS.size());
        return DOMAINS.get(pair % DOMAINS.size()) + "." + ACTIONS.get(pair / DOMAINS.size());
    }

    /** The JSON the admin API stores for job {@code index}: a definition as in {@code onebeat.jobs[]}. */
    String definition(int index) {
        String schedule = index % 2 == 0
                ? String.format(Locale.ROOT, "\"cron\":\"%d %d 1 1 *\",\"zone\":\"%s\"", index % 60, index / 60 % 24,
                        ZONES.get(index / 2 % ZONES.size()))
                : "\"every\":\"" + (30 * (1 + index / 2 % 3)) + "d\"";
        return String.format(Locale.ROOT, "{\"name\":\"%s\",%s,\"task\":\"%s.%s\",\"queue\":\"%s\","
                        + "\"args\":[%d],\"kwargs\":{\"tenant\":\"t%03d\",\"dry_run\":false},\"misfire\":\"%s\"}",
                name(index), schedule, DOMAINS.get(index % DOMAINS.size()), "run",
                DOMAINS.get(index % DOMAINS.size()), index, index % 500, index % 3 == 0 ? "SKIP_MISSED" : "FIRE_ONCE_NOW");
    }

    /** Inserts every row, a few thousand per statement, in one transaction. */
    void insert(Connection connection) throws SQLException {
        List<String> names = new ArrayList<>(count);
        List<String> definitions = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            names.add(name(i));
            definitions.add(definition(i));
        }
        insert(connection, names, definitions);
    }

    /**
     * Inserts runtime jobs as the admin API stores them, a few thousand per statement, in one
     * transaction; shared with the fire benchmark.
     *
     * @param definitions one JSON definition per name, as in {@code onebeat.jobs[]}
     */
    static void insert(Connection connection, List<String> names, List<String> definitions) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try (PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO onebeat_runtime_job (name, kind, definition, updated_by)
                SELECT name, 'job', definition::jsonb, 'bench' FROM unnest(?::text[], ?::text[]) AS t(name, definition)
                """)) {
            for (int from = 0; from < names.size(); from += ROWS_PER_STATEMENT) {
                int to = Math.min(names.size(), from + ROWS_PER_STATEMENT);
                Array nameArray = connection.createArrayOf("text", names.subList(from, to).toArray());
                Array definitionArray = connection.createArrayOf("text", definitions.subList(from, to).toArray());
                insert.setArray(1, nameArray);
                insert.setArray(2, definitionArray);
                insert.executeUpdate();
            }
            connection.commit();
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }
}
