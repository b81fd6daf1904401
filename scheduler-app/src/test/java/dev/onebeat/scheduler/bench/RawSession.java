package dev.onebeat.scheduler.bench;

import java.sql.SQLException;

/** The baseline's one connection, which the commit counter needs closed and reopened between phases. */
final class RawSession implements AutoCloseable {

    private final BenchDatabase database;
    private final int rowsPerStatement;
    private RawMultiRowInsert insert;

    RawSession(BenchDatabase database, int rowsPerStatement) throws SQLException {
        this.database = database;
        this.rowsPerStatement = rowsPerStatement;
        this.insert = RawMultiRowInsert.open(database, rowsPerStatement);
    }

    RawMultiRowInsert insert() {
        return insert;
    }

    /** Closes the connection, so that its session exits and reports its commits, and opens another. */
    void reconnect() {
        try {
            insert.close();
            insert = RawMultiRowInsert.open(database, rowsPerStatement);
        } catch (SQLException e) {
            throw new IllegalStateException("could not reconnect to " + database.name(), e);
        }
    }

    @Override
    public void close() throws SQLException {
        insert.close();
    }
}
