package dev.onebeat.testsupport.docs;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Records shaped as a module's properties, for {@link ConfigurationReferenceTest}.
 *
 * @param brokers connections by name
 * @param jobs declared jobs
 * @param hooks hooks by name
 */
record SampleProperties(Map<String, Broker> brokers, List<Job> jobs, Map<String, Hook> hooks) {

    /**
     * A connection.
     *
     * @param url where it is,
     *     on two lines
     * @param options passed on as they are
     */
    record Broker(String url, Map<String, String> options) {
    }

    /**
     * A job.
     *
     * @param name unique name
     * @param lockAtMostFor the {@code lock}'s limit
     * @param retry how a failure is tried again
     * @param channels where its alerts go
     */
    record Job(String name, @DefaultValue("1m") Duration lockAtMostFor, Retry retry, Map<String, Channel> channels) {
    }

    /**
     * Tries.
     *
     * @param attempts how many
     */
    record Retry(int attempts) {
    }

    /**
     * A channel.
     *
     * @param url where its events go
     */
    record Channel(String url) {
    }

    /** A hook, with no field described. */
    record Hook(String url, int timeout) {
    }
}
