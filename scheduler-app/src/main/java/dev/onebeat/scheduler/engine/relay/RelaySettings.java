package dev.onebeat.scheduler.engine.relay;

import java.time.Duration;

/**
 * The settings of a relay loop: its timing, and what becomes of a published row (see {@link RelayProperties} for each).
 */
record RelaySettings(int batchSize, Duration pollInterval, Duration claimLease, Duration retryInitial,
                     Duration retryMax, Duration drainTimeout, boolean deletePublished) {

    static RelaySettings of(RelayProperties properties) {
        return new RelaySettings(properties.batchSize(), properties.pollInterval(), properties.claimLease(),
                properties.retryInitial(), properties.retryMax(), properties.drainTimeout(),
                RelayProperties.DELETE.equals(properties.onPublish().trim()));
    }
}
