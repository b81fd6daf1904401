package dev.onebeat.scheduler.engine.registry;

import java.util.AbstractCollection;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Every job this replica knows, by name: those defined in code and configuration, fixed at start-up,
 * overlaid with the runtime jobs and new schedules stored in the database ({@link RuntimeJobStore}):
 * laid over whole at a replica's first load, then changed name by name as the stored ones change.
 */
public final class JobRegistry {

    /** How many changed names {@link #changedSince} remembers, across the overlays it covers. */
    static final int CHANGED_NAMES = 100_000;

    private final Map<String, RegisteredJob> defined;
    /** The stored jobs that build, by name: swapped whole by {@link #overlay(Collection)}, else changed in place. */
    private volatile Overlay overlay = new Overlay();
    private volatile long generation;
    /** The names each overlay of changes took in or out, oldest first, by the generation it made. */
    private final Deque<Changed> changes = new ArrayDeque<>();
    private int changedNames;
    /** The oldest generation {@link #changes} go on from: what came before is not known name by name. */
    private long changesFrom;

    private record Changed(long generation, Collection<String> names) {
    }

    /**
     * The runtime overlay: each stored job that builds, a runtime job or a defined job's new schedule, by name. Changed
     * in place, name by name: at a million jobs, a copy of the whole map for each change held a core for 60–340 ms.
     * A reader sees each name old or new; one that walks every job meanwhile ({@link #all}) may see some of a change's
     * names old and others new, as it would have seen the change a moment before or after.
     */
    private static final class Overlay {

        private final Map<String, RegisteredJob> byName = new ConcurrentHashMap<>();
        /** How many of them no job of code or configuration defines; a count kept, as {@link #all} sizes from it. */
        private volatile int runtimeOnly;

        /** Called by one writer at a time (the registry's lock). */
        void put(RegisteredJob job, boolean defined) {
            if (byName.put(job.name(), job) == null && !defined) {
                runtimeOnly++;
            }
        }

        /** Called by one writer at a time (the registry's lock). */
        void remove(String name, boolean defined) {
            if (byName.remove(name) != null && !defined) {
                runtimeOnly--;
            }
        }
    }

    /**
     * @param jobs validated jobs
     * @return the registry
     * @throws JobDefinitionException if two jobs share a name
     */
    public static JobRegistry of(List<RegisteredJob> jobs) {
        return new JobRegistry(jobs);
    }

    private JobRegistry(List<RegisteredJob> jobs) {
        Map<String, RegisteredJob> byName = new LinkedHashMap<>();
        for (RegisteredJob job : jobs) {
            RegisteredJob previous = byName.putIfAbsent(job.name(), job);
            if (previous != null) {
                throw new JobDefinitionException("job '" + job.name() + "' is defined twice: by " + previous.origin()
                        + " and by " + job.origin() + "; job names must be unique");
            }
        }
        this.defined = Collections.unmodifiableMap(byName);
    }

    /** @return the job of that name, if registered, with its stored schedule if it was rescheduled */
    public Optional<RegisteredJob> find(String name) {
        RegisteredJob stored = overlay.byName.get(name);
        return Optional.ofNullable(stored != null ? stored : defined.get(name));
    }

    /** @return the job as defined in code or configuration, ignoring any stored schedule */
    public Optional<RegisteredJob> defined(String name) {
        return Optional.ofNullable(defined.get(name));
    }

    /** @return the jobs defined in code and configuration, as defined, in registration order */
    public Collection<RegisteredJob> definedJobs() {
        return defined.values();
    }

    /**
     * @return all jobs: those defined in code and configuration first, in registration order, each with its stored
     *     schedule if it was rescheduled; then the runtime jobs, in no particular order. A view: a walk of it meets
     *     the changes made meanwhile, name by name (a name taken out and put back during a long walk may be met twice,
     *     or not at all), and its size is a count kept beside the jobs, not of the walk
     */
    public Collection<RegisteredJob> all() {
        Overlay current = overlay;
        return new AbstractCollection<>() {
            @Override
            public Iterator<RegisteredJob> iterator() {
                return Stream.concat(defined.values().stream().map(job -> current.byName.getOrDefault(job.name(), job)),
                                current.byName.values().stream().filter(job -> !defined.containsKey(job.name())))
                        .iterator();
            }

            @Override
            public int size() {
                return defined.size() + current.runtimeOnly;
            }

            @Override
            public Spliterator<RegisteredJob> spliterator() {
                // not SIZED: the walk may meet more or fewer jobs than size() said, if they change meanwhile
                return Spliterators.spliteratorUnknownSize(iterator(), Spliterator.NONNULL);
            }
        };
    }

    /** @return a number that changes whenever the set of jobs or any of their definitions may have changed */
    public long generation() {
        return generation;
    }

    /**
     * @param since a {@link #generation} read before
     * @return the names of the jobs added, changed or taken out since then; null when that is not known name by
     *     name (the overlay was replaced whole since, or more than {@value #CHANGED_NAMES} names changed)
     */
    public synchronized Set<String> changedSince(long since) {
        if (since < changesFrom) {
            return null;
        }
        Set<String> names = new HashSet<>();
        changes.stream().filter(changed -> changed.generation() > since).forEach(changed -> names.addAll(changed.names()));
        return names;
    }

    /**
     * Changes the runtime overlay: each job of {@code changed} adds or replaces a runtime job or a defined one's
     * schedule, and each name of {@code removed} leaves it (a runtime job goes, a defined job gets its own schedule
     * back).
     */
    synchronized void overlay(Collection<RegisteredJob> changed, Collection<String> removed) {
        if (changed.isEmpty() && removed.isEmpty()) {
            return;
        }
        Overlay current = overlay;
        removed.forEach(name -> current.remove(name, defined.containsKey(name)));
        changed.forEach(job -> current.put(job, defined.containsKey(job.name())));
        generation++;
        List<String> names = new ArrayList<>(removed);
        changed.forEach(job -> names.add(job.name()));
        changes.addLast(new Changed(generation, names));
        changedNames += names.size();
        while (changedNames > CHANGED_NAMES) {
            Changed oldest = changes.removeFirst();
            changedNames -= oldest.names().size();
            changesFrom = oldest.generation();
        }
    }

    /** Replaces the runtime overlay: each job either adds a runtime job or replaces a defined one's schedule. */
    synchronized void overlay(Collection<RegisteredJob> runtime) {
        Overlay whole = new Overlay();
        runtime.forEach(job -> whole.put(job, defined.containsKey(job.name())));
        overlay = whole;
        generation++;
        changes.clear();
        changedNames = 0;
        changesFrom = generation;
    }
}
