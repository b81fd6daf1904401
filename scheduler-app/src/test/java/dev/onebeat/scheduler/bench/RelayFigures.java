package dev.onebeat.scheduler.bench;

import java.util.List;
import java.util.Locale;

/**
 * The figures of one relay setting.
 *
 * @param nodes relay nodes, and raw publishers
 * @param batchSize rows per relay round, and messages per raw confirm wait
 * @param inTurn messages/s of both sides' measured rounds, taken in turn
 * @param database rows/s of the raw database loop's rounds, in the same turns: claim and mark, no publish
 * @param deleting rows/s of the raw database loop that deletes its rows instead, in the same turns, when the relay
 *     deletes them ({@code onebeat.relay.on-publish=delete}); {@code null} otherwise
 * @param commits growth of {@code xact_commit} over one counted drain of the outbox
 * @param idleCommits the same growth over a window in which nothing ran: what counting adds
 * @param stageMillis the relay's claim, publish and mark time per 1,000 messages, medians of the
 *     measured rounds, summed over the nodes
 * @param encodeMillis time to encode 1,000 messages (the raw side's preparation), median
 */
record RelayFigures(int nodes, int batchSize, Comparison inTurn, Rates database, Rates deleting, long commits,
                    long idleCommits, double[] stageMillis, double encodeMillis) {

    void print(int messages) {
        System.out.printf(Locale.ROOT, """
                          onebeat median %s msgs/s (best %s) [%s]
                          raw     median %s msgs/s (best %s) [%s]
                          ratio %.0f%% (median of per-cycle ratios %.0f%%)
                          raw database loop (claim + mark, no publish) median %s rows/s (best %s) [%s]; onebeat %.0f%% of it
                          commits %d over one drain of %,d messages: %.5f per message, %.5f net of %d from reconnecting
                          per 1,000 messages: claim %.1f ms, publish %.1f ms (encoding alone %.1f ms), mark (or delete) %.1f ms;\
                         raw publish %.1f ms
                        """,
                Rates.grouped(inTurn.onebeat().median()), Rates.grouped(inTurn.onebeat().best()),
                inTurn.onebeat().rounds(), Rates.grouped(inTurn.raw().median()), Rates.grouped(inTurn.raw().best()),
                inTurn.raw().rounds(), 100 * inTurn.ratio(), 100 * inTurn.medianPairRatio(),
                Rates.grouped(database.median()), Rates.grouped(database.best()), database.rounds(), 100 * ofDatabase(),
                commits, messages,
                (double) commits / messages, netCommitsPerMessage(messages), idleCommits, stageMillis[0],
                stageMillis[1], encodeMillis, stageMillis[2], 1e6 / inTurn.raw().median());
        if (deleting != null) {
            System.out.printf(Locale.ROOT, "  raw database loop that deletes (claim + delete, no publish, like for like) "
                    + "median %s rows/s (best %s) [%s]; onebeat %.0f%% of it%n", Rates.grouped(deleting.median()),
                    Rates.grouped(deleting.best()), deleting.rounds(), 100 * ofDeleting());
        }
    }

    /** Prints the summary table, one row per setting. */
    static void printTable(List<RelayFigures> figures, int messages) {
        System.out.println("| nodes | batch | onebeat msgs/s median (best) | raw msgs/s median (best) | ratio"
                + " | median per-cycle ratio | raw database loop rows/s median | onebeat / database loop"
                + " | onebeat / a loop that deletes | commits per message (net) |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|");
        figures.forEach(figure -> System.out.println(figure.row(messages)));
    }

    /** @return a row of the summary table */
    String row(int messages) {
        String ofDeleting = deleting == null ? "—"
                : String.format(Locale.ROOT, "%.0f %%", 100 * ofDeleting());
        return String.format(Locale.ROOT, "| %d | %d | %s (%s) | %s (%s) | **%.0f %%** | %.0f %% | %s | **%.0f %%** "
                        + "| %s | %.5f (%.5f) |", nodes, batchSize, Rates.grouped(inTurn.onebeat().median()),
                Rates.grouped(inTurn.onebeat().best()), Rates.grouped(inTurn.raw().median()),
                Rates.grouped(inTurn.raw().best()), 100 * inTurn.ratio(), 100 * inTurn.medianPairRatio(),
                Rates.grouped(database.median()), 100 * ofDatabase(), ofDeleting, (double) commits / messages,
                netCommitsPerMessage(messages));
    }

    /** @return onebeat's median rate over the raw database loop's */
    private double ofDatabase() {
        return inTurn.onebeat().median() / database.median();
    }

    /** @return onebeat's median rate over the deleting raw loop's; only when there is one */
    private double ofDeleting() {
        return inTurn.onebeat().median() / deleting.median();
    }

    private double netCommitsPerMessage(int messages) {
        return (double) (commits - idleCommits) / messages;
    }
}
