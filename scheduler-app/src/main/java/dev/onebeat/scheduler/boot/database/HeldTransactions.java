package dev.onebeat.scheduler.boot.database;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The end of a transaction held open on a pooled connection of its own (a relay's claim of outbox rows, a replica's
 * claim of a slice of a shared instant): its connection goes back to the pool whether or not the server still has the
 * session. A connection whose session the server ended is evicted by the pool on the error (Hikari on the driver's
 * chained I/O error; {@link PoolEviction} keeps that to the one connection).
 */
public final class HeldTransactions {

    private HeldTransactions() {
    }

    /** Returns the connection of a transaction that was committed. */
    public static void release(Connection con) {
        try {
            con.close();
        } catch (SQLException e) {
            // gone already
        }
    }

    /** Ends a held transaction: rolled back unless it was {@code committed}, its connection returned. */
    public static void end(Connection con, boolean committed) {
        if (committed) {
            release(con);
        } else {
            abandon(con);
        }
    }

    /** Rolls the transaction back, which frees what it locked unchanged, and returns the connection. */
    public static void abandon(Connection con) {
        try {
            con.rollback();
        } catch (SQLException e) {
            // the session is gone, and its transaction with it
        }
        release(con);
    }
}
