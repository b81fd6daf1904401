package dev.onebeat.scheduler.operate.admin;

import dev.onebeat.job.CalendarPolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.boot.outbound.OutboundUrls;
import dev.onebeat.scheduler.engine.calendar.CalendarStore;
import dev.onebeat.scheduler.engine.calendar.Calendars;
import dev.onebeat.scheduler.engine.quartz.QuartzWork;
import dev.onebeat.scheduler.engine.quartz.ScheduleSync;
import dev.onebeat.scheduler.engine.registry.JobDefinitionException;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.JobsProperties.Definition;
import dev.onebeat.scheduler.engine.registry.NamespaceRules;
import dev.onebeat.scheduler.engine.registry.RegisteredJob;
import dev.onebeat.scheduler.engine.registry.RuntimeJobStore.Kind;
import dev.onebeat.scheduler.engine.registry.RuntimeJobStore.StoredJob;
import dev.onebeat.scheduler.engine.registry.RuntimeJobStore;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Creates, changes and deletes runtime jobs, and reschedules jobs defined in code or configuration.
 * Each change stores the definition, updates the Quartz store and writes the audit row in one
 * transaction; then this replica's registry is reloaded at once, the others' within their poll interval.
 * A job defined in code or configuration can be paused or rescheduled (and its stored schedule removed
 * again), never deleted.
 */
@Component
public class RuntimeJobs {

    private final RuntimeJobStore store;
    private final JobRegistry registry;
    private final ScheduleSync sync;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final OutboundUrls outbound;
    private final Calendars calendars;
    private final CalendarStore calendarStore;
    private final NamespaceRules namespaces;

    RuntimeJobs(RuntimeJobStore store, JobRegistry registry, ScheduleSync sync, AuditLog audit,
                TransactionTemplate transactions, OutboundUrls outbound, Calendars calendars,
                CalendarStore calendarStore, NamespaceRules namespaces) {
        this.namespaces = namespaces;
        this.calendars = calendars;
        this.calendarStore = calendarStore;
        this.store = store;
        this.registry = registry;
        this.sync = sync;
        this.audit = audit;
        this.transactions = transactions;
        this.outbound = outbound;
    }

    /** @throws AdminConflictException if the job was applied from a file and its namespace refuses hand edits */
    private void refuseHandEdit(String name, String namespace) {
        namespaces.handEditRefused(name, namespace == null ? PeriodicJob.DEFAULT_NAMESPACE : namespace)
                .ifPresent(reason -> {
                    throw new AdminConflictException(reason);
                });
    }

    /** A URL set here is one onebeat will request: it may reach only what onebeat.security.outbound allows. */
    private void checkOutbound(Definition definition) {
        String url = definition.alerts() == null ? null : definition.alerts().healthchecksUrl();
        if (url != null && !url.isBlank()) {
            try {
                outbound.check("alerts.healthchecksUrl", url);
            } catch (IllegalArgumentException e) {
                throw new JobDefinitionException(e.getMessage());
            }
        }
    }

    /**
     * @throws JobDefinitionException naming the field at fault
     * @throws AdminConflictException if a job of that name exists
     */
    public Definition create(Definition definition) {
        PeriodicJob job = store.runtimeJob(definition);
        calendars.requireDefined(job.calendars());
        namespaces.checkDefinition("", job);
        checkOutbound(definition);
        QuartzWork.inTransaction(transactions, () -> {
            // the namespace's lock first, then the job's, on every path: two changes never wait on each other in turn
            namespaces.lock(job.namespace());
            store.lock(job.name());
            namespaces.checkLimits(job);
            if (registry.defined(job.name()).isPresent()) {
                throw new AdminConflictException("job '" + job.name() + "' is defined in code/configuration; "
                        + "PUT /api/jobs/" + job.name() + " to reschedule it");
            }
            holdCalendars(job.calendars());
            if (!store.insert(Kind.JOB, definition, Actor.current())) {
                throw new AdminConflictException("runtime job '" + job.name() + "' exists; PUT /api/jobs/"
                        + job.name() + " to change it");
            }
            sync.apply(job);
            audit.record("job.create", "job", job.name(), null, definition, null);
            return job;
        });
        store.reload();
        return definition;
    }

    /**
     * Redefines a runtime job, or reschedules a job defined in code or configuration (only {@code cron}
     * or {@code every}, {@code zone}, {@code gap}, {@code overlap} and {@code misfire} may be set then). A
     * paused job stays paused.
     *
     * @throws JobDefinitionException naming the field at fault
     * @throws UnknownJobException if there is no such job
     */
    public Definition update(String name, Definition change) {
        return update(name, change, false);
    }

    /** @param fromFile whether a job file changes it ({@link JobFiles}), which a refusal of hand edits lets through */
    Definition update(String name, Definition change, boolean fromFile) {
        if (change.name() != null && !change.name().equals(name)) {
            throw new JobDefinitionException("name: '" + change.name() + "' differs from the job in the path, '"
                    + name + "'; a job cannot be renamed");
        }
        // a body that names no namespace keeps the job's: a namespace is where a job lives, not one of its settings
        String namespace = change.namespace() != null ? change.namespace()
                : store.find(name).map(stored -> stored.definition().namespace()).orElse(null);
        Definition definition = change.toBuilder().name(name).namespace(namespace).build();
        Optional<RegisteredJob> defined = registry.defined(name);
        if (defined.isPresent()) {
            refuseSettings(name, change);
        }
        PeriodicJob job = defined.isPresent() ? store.rescheduled(defined.get().job(), definition)
                : store.runtimeJob(definition);
        calendars.requireDefined(job.calendars());
        namespaces.checkDefinition("", job);
        checkOutbound(definition);
        QuartzWork.inTransaction(transactions, () -> {
            namespaces.lock(job.namespace());
            // after a concurrent delete this finds no row, and the change is refused, not re-inserted
            store.lock(name);
            Optional<StoredJob> before = store.find(name);
            if (defined.isEmpty() && before.isEmpty()) {
                throw new UnknownJobException(name);
            }
            String now = before.map(stored -> stored.definition().namespace()).orElse(null);
            if (change.namespace() == null && !Objects.equals(now, namespace)) {
                throw new AdminConflictException("job '" + name + "' moved to namespace '" + now + "' meanwhile; "
                        + "send the change again");
            }
            if (!fromFile) {
                refuseHandEdit(name, now);
            }
            namespaces.checkLimits(job);
            holdCalendars(job.calendars());
            store.save(defined.isPresent() ? Kind.OVERRIDE : Kind.JOB, definition, Actor.current());
            sync.apply(job);
            if (defined.isPresent()) {
                audit.record("job.reschedule", "job", name, schedule(registry.find(name).orElseThrow().job()),
                        schedule(job), null);
            } else {
                audit.record("job.update", "job", name, before.get().definition(), definition, null);
            }
            return job;
        });
        store.reload();
        return definition;
    }

    /**
     * Takes the change lock of each calendar the job names, in name order, until the transaction ends, and checks it is
     * still defined: a calendar deleted on another replica since the check before the transaction cannot be named,
     * and one named here cannot be deleted before this commits ({@link CalendarAdmin#delete} takes the same lock).
     */
    private void holdCalendars(CalendarPolicy policy) {
        for (String name : policy.calendars().stream().sorted().distinct().toList()) {
            calendarStore.lock(name);
            if (!calendars.isConfigured(name) && calendarStore.find(name).isEmpty()) {
                throw new JobDefinitionException("calendars: no calendar is named '" + name + "' any more; it was "
                        + "deleted meanwhile");
            }
        }
    }

    /** A job defined in code or configuration keeps its settings there: a change of one is refused, not ignored. */
    private static void refuseSettings(String name, Definition change) {
        String setting = change.retry() != null ? "retry" : change.catchUpWindow() != null ? "catchUpWindow"
                : change.maxCatchUp() != null ? "maxCatchUp" : change.overlapPolicy() != null ? "overlapPolicy"
                : change.alerts() != null ? "alerts" : change.options() != null ? "options"
                : change.jitter() != null ? "jitter" : change.spread() != null ? "spread"
                : change.calendars() != null ? "calendars" : change.activeFrom() != null ? "activeFrom"
                : change.activeUntil() != null ? "activeUntil" : change.namespace() != null ? "namespace" : null;
        if (setting != null) {
            throw new JobDefinitionException(setting + ": job '" + name + "' is defined in code or configuration, "
                    + "where its " + setting + " is set; only its schedule (cron or every, zone, gap, overlap, misfire) "
                    + "can be changed here");
        }
    }

    /**
     * Gives a job a new schedule and keeps the rest of its definition: a runtime job keeps its task,
     * queue, arguments and lock time; a job defined in code or configuration gets a stored schedule.
     * The schedule is replaced whole: an unset zone is UTC, an unset gap or overlap rule the default.
     *
     * @param schedule the new {@code cron} or {@code every}, {@code zone}, {@code gap} and {@code overlap}
     * @param misfire the new misfire policy, or null to keep the job's
     * @throws JobDefinitionException naming the field at fault
     * @throws UnknownJobException if there is no such job
     */
    public Definition reschedule(String name, ScheduleFields schedule, String misfire) {
        if (registry.defined(name).isPresent()) {
            return update(name, Definition.builder(name).schedule(schedule.cron(), schedule.every(), schedule.zone(),
                    schedule.gap(), schedule.overlap()).misfire(misfire).build());
        }
        Definition stored = store.find(name).map(StoredJob::definition).orElseThrow(() -> new UnknownJobException(name));
        return update(name, stored.toBuilder().name(name).schedule(schedule.cron(), schedule.every(), schedule.zone(),
                schedule.gap(), schedule.overlap()).misfire(misfire == null ? stored.misfire() : misfire).build());
    }


    /**
     * @throws UnknownJobException if there is no runtime job of that name
     * @throws AdminConflictException if the job is defined in code or configuration
     */
    public void delete(String name) {
        delete(name, false);
    }

    /** @param fromFile whether a job file deletes it ({@link JobFiles}), which a refusal of hand edits lets through */
    void delete(String name, boolean fromFile) {
        if (registry.defined(name).isPresent()) {
            throw new AdminConflictException("job '" + name + "' is defined in code/configuration; it can be paused "
                    + "or rescheduled, not deleted");
        }
        QuartzWork.inTransaction(transactions, () -> {
            store.lock(name);
            StoredJob before = store.find(name).orElseThrow(() -> new UnknownJobException(name));
            if (!fromFile) {
                refuseHandEdit(name, before.definition().namespace());
            }
            // while the catalog still holds the job: the entry takes its namespace from there
            audit.record("job.delete", "job", name, before.definition(), null, null);
            store.delete(name);
            sync.remove(name);
            return before;
        });
        store.reload();
    }

    /**
     * Removes the stored schedule of a job defined in code or configuration, so its defined schedule
     * applies again. A paused job stays paused.
     *
     * @throws UnknownJobException if there is no such job
     * @throws NoScheduleOverrideException if the job has no stored schedule
     * @throws AdminConflictException if the job is a runtime job, whose schedule is part of its definition
     */
    public void resetSchedule(String name) {
        Optional<RegisteredJob> defined = registry.defined(name);
        QuartzWork.inTransaction(transactions, () -> {
            store.lock(name);
            Optional<StoredJob> stored = store.find(name);
            if (defined.isEmpty() && stored.isPresent()) {
                throw new AdminConflictException("job '" + name + "' is a runtime job; its schedule is part of its "
                        + "definition: PUT /api/jobs/" + name + " to change it");
            }
            if (defined.isEmpty()) {
                throw new UnknownJobException(name);
            }
            // a runtime job's row under the name of a defined job is ignored (configuration wins): no override
            if (stored.isEmpty() || stored.get().kind() != Kind.OVERRIDE) {
                throw new NoScheduleOverrideException(name);
            }
            PeriodicJob original = defined.get().job();
            Object before = storedSchedule(original, stored.get().definition());
            // of two concurrent resets the second waits on the row lock, then deletes nothing: one audit row
            if (!store.delete(name)) {
                throw new NoScheduleOverrideException(name);
            }
            sync.apply(original);
            audit.record("job.schedule-reset", "job", name, before, schedule(original), null);
            return original;
        });
        store.reload();
    }

    /** The override as the reschedule audit wrote it, or as stored if it no longer builds (a zone withdrawn). */
    private Object storedSchedule(PeriodicJob original, Definition override) {
        try {
            return schedule(store.rescheduled(original, override));
        } catch (JobDefinitionException e) {
            return override;
        }
    }

    private static Map<String, String> schedule(PeriodicJob job) {
        return Map.of("schedule", job.schedule().describe(), "misfire", job.misfirePolicy().name());
    }
}
