package dev.onebeat.scheduler.boot.database;

import java.util.ArrayList;
import java.util.List;

/**
 * Slices the rows of one statement into several of bounded size. Every pooled connection has a 5 s socket timeout
 * (docs/postgresql.md): a statement over a million rows ran past it, so writes and reads over a whole catalog go a
 * slice at a time, in the caller's transaction.
 */
public final class StatementChunks {

    private StatementChunks() {
    }

    /** @return views of {@code rows} of {@code size} rows each, the last one shorter; none for no rows */
    public static <T> List<List<T>> of(List<T> rows, int size) {
        if (size < 1) {
            throw new IllegalArgumentException("size must be at least 1, was " + size);
        }
        List<List<T>> chunks = new ArrayList<>();
        for (int from = 0; from < rows.size(); from += size) {
            chunks.add(rows.subList(from, Math.min(rows.size(), from + size)));
        }
        return chunks;
    }
}
