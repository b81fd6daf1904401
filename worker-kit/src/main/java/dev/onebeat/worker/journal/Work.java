package dev.onebeat.worker.journal;

import java.sql.Connection;

/** A handler's database work, done on the transaction that also holds its journal entry. */
@FunctionalInterface
public interface Work {

    /**
     * @param transaction the open transaction; do not commit, roll back or close it
     * @throws Exception any failure; it rolls the transaction back, journal entry included
     */
    void run(Connection transaction) throws Exception;
}
