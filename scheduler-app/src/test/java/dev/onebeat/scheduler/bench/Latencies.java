package dev.onebeat.scheduler.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The measured times of one kind of request, in the order they ran, and their percentiles by the
 * nearest-rank method: with 500 samples, p99 is the 5th slowest.
 *
 * @param label what was timed
 * @param nanos one time per sample
 */
record Latencies(String label, List<Long> nanos) {

    Latencies {
        if (nanos.isEmpty()) {
            throw new IllegalArgumentException("nanos must hold at least one sample");
        }
        nanos = List.copyOf(nanos);
    }

    /** @param percent 0 < percent <= 100 */
    double percentileMillis(double percent) {
        List<Long> sorted = new ArrayList<>(nanos);
        sorted.sort(null);
        int rank = (int) Math.ceil(percent / 100 * sorted.size());
        return sorted.get(Math.max(0, rank - 1)) / 1e6;
    }

    double medianMillis() {
        return percentileMillis(50);
    }

    /** A table row: label, samples, median, p95, p99, max. */
    String row() {
        return String.format(Locale.ROOT, "| %s | %d | %.1f | %.1f | %.1f | %.1f |", label, nanos.size(),
                medianMillis(), percentileMillis(95), percentileMillis(99), percentileMillis(100));
    }

    static String header() {
        return "| request | samples | median ms | p95 ms | p99 ms | max ms |\n|---|---|---|---|---|---|";
    }
}
