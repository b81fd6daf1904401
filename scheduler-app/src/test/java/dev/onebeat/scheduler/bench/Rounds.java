package dev.onebeat.scheduler.bench;

import java.util.ArrayList;
import java.util.List;

/** Runs a unit of work a number of times unmeasured, then a number of times measured one by one. */
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
