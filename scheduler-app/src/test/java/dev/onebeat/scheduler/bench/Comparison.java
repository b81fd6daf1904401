package dev.onebeat.scheduler.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * onebeat and the raw baseline timed in turn, round by round, so that both meet the same load from
 * whatever else the machine runs; the i-th rates of both sides form a pair.
 *
 * @param onebeat tasks per second of each fire
 * @param raw rows per second of each raw round
 */
record Comparison(Rates onebeat, Rates raw) {

    Comparison {
        if (onebeat.perSecond().size() != raw.perSecond().size()) {
            throw new IllegalArgumentException("onebeat and raw must have as many rounds, had "
                    + onebeat.perSecond().size() + " and " + raw.perSecond().size());
        }
    }

    /** Runs both sides in turn, onebeat first in even rounds and raw first in odd ones. */
    static Comparison alternate(int warmups, int rounds, Rounds.Round onebeat, Rounds.Round raw) {
        List<Rates> rates = Rounds.inTurn(warmups, rounds, List.of(onebeat, raw));
        return new Comparison(rates.get(0), rates.get(1));
    }

    /** @return onebeat's median rate over the raw median rate */
    double ratio() {
        return onebeat.median() / raw.median();
    }

    /** @return the median of the rounds' own ratios, which a load change between rounds cannot skew */
    double medianPairRatio() {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < onebeat.perSecond().size(); i++) {
            ratios.add(onebeat.perSecond().get(i) / raw.perSecond().get(i));
        }
        return Rates.median(ratios);
    }
}
