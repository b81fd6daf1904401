package dev.onebeat.scheduler.bench;

import dev.onebeat.transport.OutboundTask;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One relay setting measured beside a raw publisher of the same messages on the same broker and beside the raw
 * database loop ({@link RawClaimLoop}, as many threads as the relay has loops, no publish), the part the relay
 * benchmarks of every broker share. Cycles of one round of each side rotate the order of the three
 * sides. A onebeat round drains a freshly filled
 * outbox (claim, publish, mark, as the relay thread does) and is checked afterwards: every row
 * {@code published}, every message at the broker. A raw round publishes the same messages, encoded
 * beforehand (timed apart), in batches of the relay's size, and is checked the same way. Then one
 * more onebeat round, untimed, counts the database's commits.
 */
final class RelayCycles {

    /**
     * What a broker's benchmark brings: where the messages go, and its raw publisher.
     *
     * @param <M> a message as the raw publisher sends it
     */
    interface Broker<M> {

        /** Empties the destination, or notes how much it holds, before a round of either side. */
        void reset() throws Exception;

        /**
         * @param after the round, for the message
         * @throws IllegalStateException unless exactly {@code expected} messages arrived since {@link #reset()}
         */
        void requireReceived(long expected, String after) throws Exception;

        /** @return what the relay's transport publishes for {@code tasks}, byte for byte */
        List<M> encode(List<OutboundTask> tasks);

        /**
         * Publishes every message once, waiting for the broker's acknowledgement of each batch before the next.
         *
         * @return messages published
         */
        int publish(List<M> messages, int batchSize) throws Exception;
    }

    private final RelayOutbox outbox;
    private final int messages;
    private final int warmups;
    private final int rounds;

    /**
     * @param messages outbox rows per onebeat round, messages per raw round
     * @param warmups unmeasured cycles before the measured ones
     * @param rounds measured cycles
     */
    RelayCycles(RelayOutbox outbox, int messages, int warmups, int rounds) {
        this.outbox = outbox;
        this.messages = messages;
        this.warmups = warmups;
        this.rounds = rounds;
    }

    /** Prints the line that opens a setting's figures. */
    static void announce(int nodes, int concurrency, int batchSize) {
        System.out.printf(Locale.ROOT, "%d node(s) x %d loop(s), batch-size %d, on-publish %s: load average %.2f%n",
                nodes, concurrency, batchSize, RelayNodes.onPublish(), loadAverage());
    }

    static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    /**
     * @param relay the onebeat side, its rounds timed by {@code stages}
     * @param tasks the outbox rows as the relay reads them, for the raw side
     * @param idleCommits what counting commits adds by itself (see {@link RelayFigures})
     */
    <M> RelayFigures measure(int nodes, int batchSize, RelayNodes relay, RelayStages stages, Broker<M> broker,
                             List<OutboundTask> tasks, long idleCommits) throws Exception {
        List<Double> onebeat = new ArrayList<>();
        List<Double> baseline = new ArrayList<>();
        List<Double> database = new ArrayList<>();
        List<Double> deleting = new ArrayList<>();
        boolean relayDeletes = RelayNodes.deletes();
        List<double[]> stageTimes = new ArrayList<>();
        List<Double> encodeTimes = new ArrayList<>();
        for (int cycle = 0; cycle < warmups + rounds; cycle++) {
            boolean measured = cycle >= warmups;
            for (int turn = 0; turn < 3; turn++) {
                int side = (cycle + turn) % 3;
                if (side == 0) {
                    double rate = onebeatRound(relay, stages, broker);
                    if (measured) {
                        onebeat.add(rate);
                        stageTimes.add(stages.millisPerThousand(messages));
                    }
                } else if (side == 1) {
                    long encodeStart = System.nanoTime();
                    List<M> encoded = broker.encode(tasks);
                    double encodeMillis = (System.nanoTime() - encodeStart) / 1e6 * 1000 / tasks.size();
                    double rate = rawRound(broker, encoded, batchSize);
                    if (measured) {
                        baseline.add(rate);
                        encodeTimes.add(encodeMillis);
                    }
                } else {
                    double rate = databaseRound(relay.loops(), batchSize, RawClaimLoop.MARK);
                    // a relay that deletes is also measured against a loop that deletes: like for like (it runs right
                    // after the marking loop, in that loop's turn)
                    double deletingRate = relayDeletes ? databaseRound(relay.loops(), batchSize, RawClaimLoop.DELETE) : 0;
                    if (measured) {
                        database.add(rate);
                        if (relayDeletes) {
                            deleting.add(deletingRate);
                        }
                    }
                }
            }
        }
        Comparison inTurn = new Comparison(new Rates(onebeat), new Rates(baseline));
        outbox.refill(messages);
        broker.reset();
        long before = outbox.settledCommits();
        relay.drain();
        long commits = outbox.settledCommits() - before;
        return new RelayFigures(nodes, batchSize, inTurn, new Rates(database),
                relayDeletes ? new Rates(deleting) : null, commits, idleCommits, medians(stageTimes),
                Rates.median(encodeTimes));
    }

    /** @return messages/s of one drain of a freshly filled outbox */
    private double onebeatRound(RelayNodes relay, RelayStages stages, Broker<?> broker) throws Exception {
        outbox.refill(messages);
        broker.reset();
        stages.reset();
        long start = System.nanoTime();
        int claimed = relay.drain();
        long elapsed = System.nanoTime() - start;
        String left = outbox.unpublished();
        if (claimed != messages || !left.isEmpty()) {
            throw new IllegalStateException("the relay claimed " + claimed + " of " + messages
                    + " rows; not published: " + left);
        }
        broker.requireReceived(messages, "a relay round");
        return messages * 1e9 / elapsed;
    }

    /**
     * @param settle how the loop ends its rows: {@link RawClaimLoop#MARK} or {@link RawClaimLoop#DELETE}
     * @return rows/s of one drain of a freshly filled outbox by the raw database loop
     */
    private double databaseRound(int loops, int batchSize, String settle) throws Exception {
        outbox.refill(messages);
        long start = System.nanoTime();
        int drained = RawClaimLoop.drain(outbox.pool(), outbox.queue(), loops, batchSize, settle);
        long elapsed = System.nanoTime() - start;
        if (drained != messages) {
            throw new IllegalStateException("the raw database loop drained " + drained + " of " + messages + " rows");
        }
        return messages * 1e9 / elapsed;
    }

    /** @return messages/s of one raw publish of {@code encoded} */
    private static <M> double rawRound(Broker<M> broker, List<M> encoded, int batchSize) throws Exception {
        broker.reset();
        long start = System.nanoTime();
        int published = broker.publish(encoded, batchSize);
        long elapsed = System.nanoTime() - start;
        broker.requireReceived(encoded.size(), "a raw round");
        return published * 1e9 / elapsed;
    }

    private static double[] medians(List<double[]> perRound) {
        double[] medians = new double[perRound.get(0).length];
        for (int stage = 0; stage < medians.length; stage++) {
            int s = stage;
            medians[stage] = Rates.median(perRound.stream().map(times -> times[s]).toList());
        }
        return medians;
    }
}
