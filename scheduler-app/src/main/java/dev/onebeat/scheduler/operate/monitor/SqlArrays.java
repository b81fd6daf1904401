package dev.onebeat.scheduler.operate.monitor;

import java.sql.Array;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;

/** The {@code timestamptz[]} parameters of the package's {@code unnest} statements. */
final class SqlArrays {

    private SqlArrays() {
    }

    /** @return the instants as a {@code timestamptz} array, a null instant as a null element */
    static Array timestamps(Connection con, List<Instant> instants) throws SQLException {
        return con.createArrayOf("timestamptz", instants.stream().map(at -> at == null ? null : Timestamp.from(at))
                .toArray());
    }
}
