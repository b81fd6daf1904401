package dev.onebeat.scheduler.operate.admin;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.registry.AppliedJobs;
import dev.onebeat.scheduler.engine.registry.JobDefinitionException;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.JobsProperties.Definition;
import dev.onebeat.scheduler.engine.registry.NamespaceRules;
import dev.onebeat.scheduler.engine.registry.Namespaces;
import dev.onebeat.scheduler.engine.registry.RuntimeJobStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * Schedules as code: a job file (the YAML {@code onebeat.jobs} reads and the celery-beat importer writes) planned
 * against a namespace, and applied. The plan says, per job, what applying would do: create it, change it (the
 * fields that change), delete it (only when {@code prune} is asked: a runtime job of the namespace the file does not
 * hold), or nothing. Applying makes every change of the plan in one transaction (all or none), marks each job of the
 * file as applied from it, and writes the audit: each job's change, and one {@code namespace.apply} entry with the
 * file and the counts, with the actor who applied it.
 *
 * <p>A job applied from a file and then changed by hand (the API, the console) has drifted: its next plan shows the
 * change back to the file, marked as drift. A namespace with {@code hand-edits: refuse} refuses those hand edits.
 */
@Component
public class JobFiles {

    /** What applying a file would do to one job. */
    public enum Action {
        CREATE, CHANGE, DELETE, UNCHANGED,
        /** A runtime job of the namespace the file does not hold, left as it is without {@code prune}. */
        NOT_IN_FILE
    }

    /**
     * One field a change sets.
     *
     * @param from its value now, null when unset
     * @param to its value in the file, null when unset
     */
    public record FieldChange(String field, JsonNode from, JsonNode to) {
    }

    /**
     * @param action what applying does to the job
     * @param fields what a change sets, by field name
     * @param drifted whether the job was changed by hand since it was last applied
     * @param appliedFrom the file it was last applied from, null if none
     */
    public record JobChange(String job, Action action, List<FieldChange> fields, boolean drifted, String appliedFrom) {
    }

    /**
     * @param file the file's name, as the caller gave it
     * @param jobs one entry per job of the file and per runtime job of the namespace, by name
     */
    public record Plan(String namespace, String file, boolean prune, List<JobChange> jobs) {

        /** @return how many jobs the plan does that to */
        public long count(Action action) {
            return jobs.stream().filter(job -> job.action() == action).count();
        }

        /** @return whether applying it would change anything: what {@code --detect-drift} fails on */
        public boolean changes() {
            return count(Action.CREATE) + count(Action.CHANGE) + count(Action.DELETE) > 0;
        }
    }

    private final RuntimeJobs jobs;
    private final RuntimeJobStore store;
    private final AppliedJobs applied;
    private final JobRegistry registry;
    private final Namespaces namespaces;
    private final TransactionTemplate transactions;
    private final AuditLog audit;
    private final JsonMapper json;
    private final NamespaceRules rules;

    JobFiles(RuntimeJobs jobs, RuntimeJobStore store, AppliedJobs applied, JobRegistry registry, Namespaces namespaces,
             TransactionTemplate transactions, AuditLog audit, JsonMapper json, NamespaceRules rules) {
        this.rules = rules;
        this.jobs = jobs;
        this.store = store;
        this.applied = applied;
        this.registry = registry;
        this.namespaces = namespaces;
        this.transactions = transactions;
        this.audit = audit;
        this.json = json;
    }

    /**
     * @param file the file's name, shown in the plan, the audit and each job's mark
     * @param yaml the file's text
     * @throws JobDefinitionException naming the file, the entry and the field at fault, as start-up would
     * @throws UnknownNamespaceException if the namespace is not declared
     */
    public Plan plan(String namespace, String file, String yaml, boolean prune) {
        if (namespaces.find(namespace).isEmpty()) {
            throw new UnknownNamespaceException(namespace);
        }
        Map<String, Definition> wanted = read(namespace, file, yaml);
        Map<String, AppliedJobs.Stored> stored = new LinkedHashMap<>();
        applied.inNamespace(namespace).forEach(job -> stored.put(job.name(), job));
        List<JobChange> changes = new ArrayList<>();
        for (String name : new TreeSet<>(union(wanted.keySet(), stored.keySet()))) {
            Definition definition = wanted.get(name);
            AppliedJobs.Stored now = stored.get(name);
            if (now == null) {
                changes.add(new JobChange(name, Action.CREATE, diff(null, tree(definition)), false, null));
            } else if (definition == null) {
                changes.add(new JobChange(name, prune ? Action.DELETE : Action.NOT_IN_FILE, List.of(), now.drifted(),
                        now.appliedFrom()));
            } else {
                List<FieldChange> fields = diff(now.definition(), tree(definition));
                changes.add(new JobChange(name, fields.isEmpty() ? Action.UNCHANGED : Action.CHANGE, fields,
                        now.drifted(), now.appliedFrom()));
            }
        }
        return new Plan(namespace, file, prune, changes);
    }

    /**
     * Applies the file: every change of its plan in one transaction, or none if one fails.
     *
     * @return the plan applied
     */
    public Plan apply(String namespace, String file, String yaml, boolean prune) {
        // refused before any lock when the file is wrong
        plan(namespace, file, yaml, prune);
        Map<String, Definition> wanted = read(namespace, file, yaml);
        try {
            return transactions.execute(status -> {
                // planned again under the namespace's lock: another apply, or a job created into it, waits
                rules.lock(namespace);
                Plan plan = plan(namespace, file, yaml, prune);
                for (JobChange change : plan.jobs()) {
                    if (change.action() == Action.CHANGE || change.action() == Action.DELETE) {
                        stillInNamespace(change.job(), namespace);
                    }
                    switch (change.action()) {
                        case CREATE -> jobs.create(wanted.get(change.job()));
                        case CHANGE -> jobs.update(change.job(), wanted.get(change.job()), true);
                        case DELETE -> jobs.delete(change.job(), true);
                        default -> {
                        }
                    }
                    if (wanted.containsKey(change.job())) {
                        applied.markApplied(change.job(), file);
                    }
                }
                audit.record("namespace.apply", "namespace", namespace, null, summary(plan), null);
                return plan;
            });
        } finally {
            // the registry follows what committed: after a rollback, the state before the file
            store.reload();
        }
    }

    /** Takes the job's change lock and checks, under it, that the job is still of the namespace the file is for. */
    private void stillInNamespace(String job, String namespace) {
        store.lock(job);
        String now = store.find(job).map(stored -> stored.definition().namespace())
                .orElse(PeriodicJob.DEFAULT_NAMESPACE);
        if (!namespace.equals(now == null ? PeriodicJob.DEFAULT_NAMESPACE : now)) {
            throw new AdminConflictException("job '" + job + "' moved to namespace '" + now + "' while the file was "
                    + "applied; plan again");
        }
    }

    private Map<String, Object> summary(Plan plan) {
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("file", plan.file());
        summary.put("prune", plan.prune());
        for (Action action : List.of(Action.CREATE, Action.CHANGE, Action.DELETE)) {
            summary.put(action.name().toLowerCase(Locale.ROOT) + "d",
                    plan.jobs().stream().filter(job -> job.action() == action).map(JobChange::job).toList());
        }
        summary.put("unchanged", plan.count(Action.UNCHANGED));
        return summary;
    }

    /** Reads the file's jobs as start-up reads {@code onebeat.jobs}, each in the namespace it is applied to. */
    private Map<String, Definition> read(String namespace, String file, String yaml) {
        List<Definition> definitions;
        try {
            List<PropertySource<?>> sources = new YamlPropertySourceLoader().load(file,
                    new ByteArrayResource(yaml.getBytes(StandardCharsets.UTF_8), file));
            definitions = new Binder(ConfigurationPropertySources.from(sources))
                    .bind("onebeat.jobs", Bindable.listOf(Definition.class)).orElse(List.of());
        } catch (BindException e) {
            Throwable cause = e;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            throw new JobDefinitionException(file + ": " + e.getName() + ": " + cause.getMessage(), e);
        } catch (IOException | RuntimeException e) {
            throw new JobDefinitionException(file + ": not a YAML job file (onebeat: jobs: [...]): " + e.getMessage(),
                    e);
        }
        Map<String, Definition> wanted = new LinkedHashMap<>();
        Map<String, String> seen = new HashMap<>();
        for (int i = 0; i < definitions.size(); i++) {
            Definition definition = definitions.get(i);
            String where = file + ": onebeat.jobs[" + i + "] (job '" + definition.name() + "')";
            if (definition.namespace() != null && !definition.namespace().equals(namespace)) {
                throw new JobDefinitionException(where + ".namespace: '" + definition.namespace() + "', but the file "
                        + "is applied to namespace '" + namespace + "'");
            }
            String earlier = seen.putIfAbsent(String.valueOf(definition.name()), where);
            if (earlier != null) {
                throw new JobDefinitionException(where + ": the file defines it twice, first at " + earlier);
            }
            if (definition.name() != null && registry.defined(definition.name()).isPresent()) {
                throw new JobDefinitionException(where + ": is defined in code or configuration; a file cannot own it");
            }
            Definition inNamespace = definition.toBuilder().namespace(namespace).build();
            try {
                store.runtimeJob(inNamespace);
            } catch (JobDefinitionException e) {
                throw new JobDefinitionException(where + "." + e.getMessage(), e);
            }
            wanted.put(definition.name(), inNamespace);
        }
        return wanted;
    }

    private JsonNode tree(Definition definition) {
        return json.valueToTree(definition);
    }

    /** @return the top-level fields whose values differ, unset ones (null) left out, by name */
    private static List<FieldChange> diff(JsonNode from, JsonNode to) {
        Map<String, JsonNode> before = fields(from);
        Map<String, JsonNode> after = fields(to);
        List<FieldChange> changes = new ArrayList<>();
        for (String field : new TreeSet<>(union(before.keySet(), after.keySet()))) {
            if (!Objects.equals(before.get(field), after.get(field))) {
                changes.add(new FieldChange(field, before.get(field), after.get(field)));
            }
        }
        return changes;
    }

    private static Map<String, JsonNode> fields(JsonNode node) {
        Map<String, JsonNode> fields = new HashMap<>();
        if (node == null) {
            return fields;
        }
        // a job stored without a namespace is of default: no change for a file that names it, or says nothing
        fields.put("namespace", StringNode.valueOf(PeriodicJob.DEFAULT_NAMESPACE));
        if (node instanceof ObjectNode object) {
            for (Iterator<Map.Entry<String, JsonNode>> it = object.properties().iterator(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                if (!field.getValue().isNull()) {
                    fields.put(field.getKey(), field.getValue());
                }
            }
        }
        return fields;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return all;
    }
}
