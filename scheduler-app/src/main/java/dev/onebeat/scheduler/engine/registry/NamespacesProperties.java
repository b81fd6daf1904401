package dev.onebeat.scheduler.engine.registry;

import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The namespaces of the cluster ({@code onebeat.namespaces.<name>}): each team's or service's share of it. Every job
 * belongs to one, {@code default} unless it names another; {@code default} exists without being declared, every other
 * namespace a job or a grant names must be declared here.
 *
 * <pre>{@code
 * onebeat:
 *   namespaces:
 *     payments:
 *       queues: [payments, payments-*]   # only its jobs send to these, and its jobs send nowhere else
 *       max-jobs: 200                    # a job past it is refused (409)
 *       max-fires-per-instant: 50        # a job that would make more of its jobs fire at one instant is refused
 *       hand-edits: refuse               # jobs applied from a file refuse changes through the API and console
 * }</pre>
 *
 * @param namespaces namespaces by name: 1 to 63 lower-case letters, digits and inner hyphens
 */
@ConfigurationProperties("onebeat")
public record NamespacesProperties(@DefaultValue Map<String, Namespace> namespaces) {

    /**
     * One namespace.
     *
     * @param queues the queues it owns, by name or with {@code *} standing for any characters: no job of another
     *     namespace may send to them, and when any is listed its own jobs send to these only; empty for none
     * @param maxJobs how many jobs it may hold, unlimited when unset
     * @param maxFiresPerInstant how many of its jobs may fire at one instant (jobs on schedules that meet at an
     *     instant add up), unlimited when unset
     * @param handEdits what a change through the API or the console does to a job applied from a file: {@code show}
     *     (default) makes it and shows the job as drifted from its file, {@code refuse} refuses it (409)
     */
    public record Namespace(@DefaultValue List<String> queues, Integer maxJobs, Integer maxFiresPerInstant,
                            @DefaultValue("show") String handEdits) {
    }
}
