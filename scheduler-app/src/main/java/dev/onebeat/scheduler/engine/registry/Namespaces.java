package dev.onebeat.scheduler.engine.registry;

import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;

/**
 * The namespaces of configuration ({@code onebeat.namespaces}), checked at start-up: their names, the queues they
 * own (no queue owned twice), their limits and what a hand edit of a job applied from a file does. {@code default}
 * always exists. Every problem stops start-up naming the property.
 */
@Component
public class Namespaces {

    /** What a change through the API or the console does to a job applied from a file. */
    public enum HandEdits {
        /** It is made, and the job is shown as drifted from its file until the file is applied again. */
        SHOW,
        /** It is refused (409): the file is the only way to change the job. */
        REFUSE
    }

    /**
     * One namespace, checked.
     *
     * @param name its name
     * @param queues the patterns of the queues it owns, empty for none
     * @param maxJobs how many jobs it may hold, null for no limit
     * @param maxFiresPerInstant how many of its jobs may fire at one instant, null for no limit
     * @param handEdits what a hand edit of a job applied from a file does
     */
    public record Namespace(String name, List<String> queues, Integer maxJobs, Integer maxFiresPerInstant,
                            HandEdits handEdits) {

        /** @return whether the namespace owns {@code queue} */
        public boolean owns(String queue) {
            return queues.stream().anyMatch(pattern -> matches(pattern, queue));
        }
    }

    private final Map<String, Namespace> namespaces;
    /** The namespace owning each queue seen, empty for a queue nobody owns: a dispatch asks for every task. */
    private final Map<String, Optional<String>> owners = new ConcurrentHashMap<>();

    Namespaces(NamespacesProperties properties) {
        Map<String, Namespace> checked = new TreeMap<>();
        checked.put(PeriodicJob.DEFAULT_NAMESPACE, new Namespace(PeriodicJob.DEFAULT_NAMESPACE, List.of(), null, null,
                HandEdits.SHOW));
        properties.namespaces().forEach((name, namespace) -> checked.put(name, check(name, namespace)));
        Map<String, String> patterns = new TreeMap<>();
        for (Namespace namespace : checked.values()) {
            for (String queue : namespace.queues()) {
                String earlier = patterns.putIfAbsent(queue, namespace.name());
                if (earlier != null) {
                    throw new JobDefinitionException("onebeat.namespaces." + namespace.name() + ".queues: queue '"
                            + queue + "' is already owned by namespace '" + earlier + "'");
                }
            }
        }
        this.namespaces = Collections.unmodifiableMap(checked);
    }

    private static Namespace check(String name, NamespacesProperties.Namespace namespace) {
        String path = "onebeat.namespaces." + name;
        try {
            Jobs.periodic("namespace-check", Schedule.every(Duration.ofMinutes(1))).namespace(name);
        } catch (IllegalArgumentException e) {
            throw new JobDefinitionException(path + ": " + e.getMessage(), e);
        }
        List<String> queues = new ArrayList<>();
        for (int i = 0; i < namespace.queues().size(); i++) {
            String queue = namespace.queues().get(i);
            if (queue == null || queue.isBlank() || !queue.strip().equals(queue)) {
                throw new JobDefinitionException(path + ".queues[" + i + "]: must be a queue name or a pattern with "
                        + "*, without surrounding blanks, was '" + queue + "'");
            }
            queues.add(queue);
        }
        positive(path + ".max-jobs", namespace.maxJobs());
        positive(path + ".max-fires-per-instant", namespace.maxFiresPerInstant());
        HandEdits handEdits;
        try {
            handEdits = HandEdits.valueOf(namespace.handEdits().strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new JobDefinitionException(path + ".hand-edits: '" + namespace.handEdits() + "' is not one of "
                    + "show, refuse", e);
        }
        return new Namespace(name, List.copyOf(queues), namespace.maxJobs(), namespace.maxFiresPerInstant(),
                handEdits);
    }

    private static void positive(String path, Integer value) {
        if (value != null && value < 1) {
            throw new JobDefinitionException(path + ": must be at least 1, was " + value);
        }
    }

    /** @return every namespace, {@code default} included, by name */
    public Set<String> names() {
        return namespaces.keySet();
    }

    /** @return the namespace, if it is declared ({@code default} always is) */
    public Optional<Namespace> find(String name) {
        return Optional.ofNullable(namespaces.get(name));
    }

    /**
     * @param path where the namespace is named, leading the message
     * @return the namespace
     * @throws JobDefinitionException if it is not declared
     */
    public Namespace require(String path, String name) {
        Namespace namespace = namespaces.get(name);
        if (namespace == null) {
            throw new JobDefinitionException(path + ": no namespace is named '" + name + "'; declare it under "
                    + "onebeat.namespaces." + name + " (namespaces: " + String.join(", ", names()) + ")");
        }
        return namespace;
    }

    /** @return the namespace owning {@code queue}, if any does */
    public Optional<String> ownerOf(String queue) {
        return owners.computeIfAbsent(queue, key -> namespaces.values().stream()
                .filter(namespace -> namespace.owns(key)).map(Namespace::name).findFirst());
    }

    /**
     * @param path where the queue is named, leading the message
     * @throws JobDefinitionException if a job of {@code namespace} may not send to {@code queue}: another namespace
     *         owns it, or its own namespace owns queues and this is none of them
     */
    public void checkQueue(String path, String namespace, String queue) {
        Optional<String> owner = ownerOf(queue);
        if (owner.isPresent() && !owner.get().equals(namespace)) {
            throw new JobDefinitionException(path + ": queue '" + queue + "' belongs to namespace '" + owner.get()
                    + "'; a job of namespace '" + namespace + "' may not send to it");
        }
        Namespace own = namespaces.get(namespace);
        if (owner.isEmpty() && own != null && !own.queues().isEmpty()) {
            throw new JobDefinitionException(path + ": namespace '" + namespace + "' sends to its own queues only ("
                    + String.join(", ", own.queues()) + "), not to '" + queue + "'");
        }
    }

    /** {@code *} stands for any characters, everything else for itself. */
    static boolean matches(String pattern, String queue) {
        if (!pattern.contains("*")) {
            return pattern.equals(queue);
        }
        StringBuilder regex = new StringBuilder();
        for (String part : pattern.split("\\*", -1)) {
            if (!regex.isEmpty()) {
                regex.append(".*");
            }
            regex.append(Pattern.quote(part));
        }
        return queue.matches(regex.toString());
    }
}
