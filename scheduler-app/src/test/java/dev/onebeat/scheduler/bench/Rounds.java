package dev.onebeat.scheduler.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Times rounds of work one by one, after unmeasured warm-up rounds, alone or several kinds in turn.
 * Each round's rate is the rows it reports over its wall-clock time.
 */
final class Rounds {

    /** One round of work. */
    @FunctionalInterface
    interface Round {
        /**
         * @param index 0, 1, … across warm-up and measured rounds
         * @return rows (tasks) the round wrote or attempted; the rate is this over the round's time
         */
        int run(int index) throws Exception;
    }

    private Rounds() {
    }

    /** @param firstIndex the index of the first round, so that indexes never repeat */
    static void warmUp(int count, int firstIndex, Round round) {
        for (int i = 0; i < count; i++) {
            run(round, firstIndex + i);
        }
    }

    /** @param firstIndex the index of the first measured round, so that indexes never repeat */
    static Rates measure(int count, int firstIndex, Round round) {
        List<Double> rates = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long start = System.nanoTime();
            int rows = run(round, firstIndex + i);
            long elapsed = System.nanoTime() - start;
            rates.add(rows * 1e9 / elapsed);
        }
        return new Rates(rates);
    }

    /** Warms up, then measures. */
    static Rates time(int warmups, int count, Round round) {
        warmUp(warmups, 0, round);
        return measure(count, warmups, round);
    }

    /**
     * Runs several kinds of round in turn: each cycle runs each once, starting one further along
     * the list each time, so that every kind meets the same load and none always follows another.
     *
     * @return the measured rates of each kind, in the order given
     */
    static List<Rates> inTurn(int warmups, int count, List<Round> kinds) {
        List<List<Double>> rates = new ArrayList<>();
        kinds.forEach(kind -> rates.add(new ArrayList<>(count)));
        for (int cycle = 0; cycle < warmups + count; cycle++) {
            for (int k = 0; k < kinds.size(); k++) {
                int kind = (cycle + k) % kinds.size();
                double rate = measure(1, cycle, kinds.get(kind)).median();
                if (cycle >= warmups) {
                    rates.get(kind).add(rate);
                }
            }
        }
        return rates.stream().map(Rates::new).toList();
    }

    private static int run(Round round, int index) {
        try {
            return round.run(index);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("round " + index + " failed", e);
        }
    }
}
