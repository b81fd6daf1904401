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

    /** The one connection, for {@link CommitCounter}: closed, then replaced by a new one. */
    CommitCounter.Sessions sessions() {
        return new CommitCounter.Sessions() {
            @Override
            public void close() {
                try {
                    insert.close();
                } catch (SQLException e) {
                    throw new IllegalStateException("could not close the baseline's connection", e);
                }
            }

            @Override
            public void awaitReopened() {
                try {
                    insert = RawMultiRowInsert.open(database, rowsPerStatement);
                } catch (SQLException e) {
                    throw new IllegalStateException("could not reconnect to " + database.name(), e);
                }
            }
        };
    }

    @Override
    public void close() throws SQLException {
        insert.close();
    }
}
