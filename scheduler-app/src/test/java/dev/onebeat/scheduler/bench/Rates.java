package dev.onebeat.scheduler.bench;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The rates of the measured rounds of one phase, in rows (tasks) per second, in the order they ran.
 *
 * @param perSecond one rate per round
 */
record Rates(List<Double> perSecond) {

    Rates {
        if (perSecond.isEmpty()) {
            throw new IllegalArgumentException("perSecond must hold at least one round");
        }
        perSecond = List.copyOf(perSecond);
    }

    double median() {
        return median(perSecond);
    }

    /** @return the median of non-empty {@code values}; the mean of the middle two for an even count */
    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    double best() {
        return perSecond.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    }

    /** @return the median time of one round of {@code rows} rows, in milliseconds */
    double medianMillis(int rows) {
        return rows * 1000.0 / median();
    }

    /** @return every round's rate, in thousands per second */
    String rounds() {
        return perSecond.stream().map(rate -> String.format(Locale.ROOT, "%.1fk", rate / 1000))
                .collect(Collectors.joining(" "));
    }

    static String grouped(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
    }
}
