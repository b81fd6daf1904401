package dev.onebeat.scheduler.engine.quartz;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import org.quartz.impl.jdbcjobstore.SchedulerStateRecord;

/**
 * How long ago, by the database's clock, each replica last checked in ({@code onebeat_checked_in_at}, stamped by the
 * database, migration 017), carried onto this replica's clock by the time they were read. Quartz judges a peer by the
 * check-in time the peer wrote from its own clock: a replica whose clock runs ahead sees every peer's check-in as old
 * and declares healthy peers dead (and recovers their running fires); one behind is declared dead by the others.
 *
 * @param agesMillis per instance id, database now minus its last check-in
 * @param readAtMillis this replica's time just after the ages were read
 */
record CheckinAges(Map<String, Long> agesMillis, long readAtMillis) {

    static final CheckinAges NONE = new CheckinAges(Map.of(), 0);

    /** Reads the ages of every replica of scheduler {@code schedulerName}, on the check-in's own connection. */
    static CheckinAges read(Connection connection, String tablePrefix, String schedulerName) throws SQLException {
        Map<String, Long> ages = new HashMap<>();
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT instance_name, floor(extract(epoch FROM clock_timestamp() - onebeat_checked_in_at) * 1000)"
                        + " FROM " + tablePrefix + "SCHEDULER_STATE WHERE sched_name = ?")) {
            statement.setString(1, schedulerName);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    ages.put(rows.getString(1), rows.getLong(2));
                }
            }
        }
        // taken after the answer: a check-in then looks slightly younger, never older, than it is
        return new CheckinAges(Map.copyOf(ages), System.currentTimeMillis());
    }

    /**
     * @return the replica's last check-in on this replica's clock, from the database's stamp; the time the replica
     *     wrote if there is no stamp (an orphaned fire's placeholder record, a replica checked in after the read)
     */
    long checkinOnOwnClock(SchedulerStateRecord record) {
        Long age = agesMillis.get(record.getSchedulerInstanceId());
        return age == null ? record.getCheckinTimestamp() : readAtMillis - age;
    }
}
