package dev.onebeat.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every SQL statement on a table lives in its owner: one place to read every statement on a table, so that its
 * locks, its indexes and the invariants its statements guard are reasoned about in one class, and everybody else
 * (admin, console, gauges, retention, monitor, backfill) calls the owner's methods.
 *
 * <p>The tables are read from the changelogs, plus the Quartz tables onebeat queries itself. A string literal (text
 * blocks too) is a statement, or a part of one, when it holds a SQL keyword; a table named in such a literal outside
 * its owner fails the test. A literal that is a table's bare name could be spliced into a statement
 * ({@code "DELETE FROM " + TABLE}), so outside the owner it fails too, unless its class is declared in
 * {@link #NAMES_ONLY} as using the name for something else. Javadoc and comments are not literals.
 */
class TableOwnersTest {

    private static final Path MAIN = Path.of("src/main/java");
    private static final Path CHANGELOGS = Path.of("../migrations/src/main/resources/db/onebeat");
    private static final String APP = "dev.onebeat.scheduler.";

    /** Quartz's tables onebeat runs statements on itself; Quartz's job store runs the others. */
    private static final Set<String> QUARTZ_TABLES = Set.of("qrtz_triggers", "qrtz_scheduler_state");

    private static final List<String> LEDGER = List.of("engine.fire.FireLedger", "engine.fire.FireRecord",
            "engine.fire.FireAttempts", "engine.fire.FireHorizon", "engine.fire.InstantRecords");

    /**
     * Table → its owner. An owner is one class, or, where one class would pass the size the house allows, the classes
     * of one package that each hold one concern's statements on it (the outbox: the fire path's insert, the relay's
     * claims and marks, everything else; the ledger: claims, history, attempts, retention, operators' reads).
     */
    private static final Map<String, List<String>> OWNERS = Map.ofEntries(
            Map.entry("onebeat_task", List.of("engine.outbox.OutboxWriter", "engine.relay.RelayRepository",
                    "engine.outbox.TaskTable")),
            Map.entry("onebeat_fire", LEDGER),
            Map.entry("onebeat_fire_attempt", LEDGER),
            Map.entry("onebeat_fire_horizon", LEDGER),
            Map.entry("onebeat_retention_walk", LEDGER),
            Map.entry("onebeat_fire_fault", List.of("engine.fire.FireFaults")),
            Map.entry("onebeat_fire_slice", List.of("engine.fire.SliceTable")),
            Map.entry("shedlock", List.of("engine.fire.JobLockTable")),
            Map.entry("onebeat_job", List.of("engine.registry.JobCatalog", "engine.registry.JobListing",
                    "engine.registry.ScheduleMembers", "engine.registry.NamespaceJobs")),
            Map.entry("onebeat_runtime_job", List.of("engine.registry.RuntimeJobStore", "engine.registry.AppliedJobs")),
            Map.entry("onebeat_runtime_job_version", List.of("engine.registry.RuntimeJobStore")),
            Map.entry("onebeat_runtime_job_removed", List.of("engine.registry.RuntimeJobStore")),
            Map.entry("onebeat_orphan_judgement", List.of("engine.registry.OrphanJudgements")),
            Map.entry("onebeat_calendar", List.of("engine.calendar.CalendarStore")),
            Map.entry("onebeat_applied_changelog", List.of("boot.migration.AppliedChangelog")),
            Map.entry("onebeat_node", List.of("engine.cluster.NodeTable")),
            Map.entry("onebeat_node_job", List.of("engine.cluster.NodeTable")),
            Map.entry("qrtz_triggers", List.of("engine.quartz.ScheduleTriggers")),
            Map.entry("qrtz_scheduler_state", List.of("engine.cluster.ClusterState")),
            Map.entry("onebeat_audit", List.of("operate.admin.AuditLog")),
            Map.entry("onebeat_trigger_request", List.of("operate.admin.ManualTriggers")),
            Map.entry("onebeat_backfill", List.of("operate.backfill.BackfillTable")),
            Map.entry("onebeat_job_event", List.of("operate.monitor.MonitorTable")),
            Map.entry("onebeat_job_monitor", List.of("operate.monitor.MonitorTable")),
            // worker-kit's tables: its classes own them; the scheduler only deletes expired throttle rows
            Map.entry("onebeat_throttle", List.of("operate.retention.Purge")),
            Map.entry("onebeat_processed", List.of()),
            Map.entry("onebeat_effect", List.of()));

    /**
     * Owners whose statements also read another owner's table, in the same statement because the answer must be one
     * snapshot (or one page in one query); they never write it.
     */
    private static final Map<String, Set<String>> READS_ACROSS = Map.of(
            // orphan judgement: the live replicas and what they register, judged in one statement
            "engine.registry.JobCatalog", Set.of("qrtz_scheduler_state", "onebeat_node_job", "onebeat_runtime_job",
                    "onebeat_node", "onebeat_runtime_job_version"),
            // a page of jobs with their next and last fire, one query whatever the number of jobs
            "engine.registry.JobListing", Set.of("qrtz_triggers", "onebeat_fire", "onebeat_runtime_job"),
            // a lock held by a replica Quartz no longer sees as alive
            "engine.fire.JobLockTable", Set.of("qrtz_scheduler_state", "onebeat_job"),
            // retention of rows of jobs no longer in the catalog
            "operate.backfill.BackfillTable", Set.of("onebeat_job"),
            "operate.monitor.MonitorTable", Set.of("onebeat_job"),
            // a user of some namespaces: the tasks of their jobs, one page in one query
            "engine.outbox.TaskTable", Set.of("onebeat_job"),
            // an entry takes the namespace of the job (or the task's job) it is about, as it is written
            "operate.admin.AuditLog", Set.of("onebeat_job", "onebeat_task"));

    /**
     * Classes that hold a table's bare name outside its owner, and why it is not a statement. A class added here is a
     * reviewed decision, as an owner is.
     */
    private static final Map<String, String> NAMES_ONLY = Map.of(
            "operate.retention.Purge", "the purge's metric tag and log line name the table; the rows go through the "
                    + "owners' purge methods");

    private static final Pattern CREATE_TABLE = Pattern.compile("(?i)CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?(\\w+)");
    private static final Pattern SQL = Pattern.compile(
            "(?i)\\b(SELECT|INSERT|UPDATE|DELETE|FROM|JOIN|INTO|TRUNCATE|ALTER|WITH)\\b");
    private static final Pattern QUARTZ = Pattern.compile("(?i)\\bqrtz_\\w+");

    @Test
    void everyStatementOnATableIsInItsOwner() {
        Set<String> tables = tables();
        Map<String, Set<String>> offenders = new TreeMap<>();
        for (Path file : javaFiles()) {
            for (String table : outsideOwner(className(file), read(file), tables)) {
                offenders.computeIfAbsent(table, key -> new TreeSet<>()).add(file.toString());
            }
        }
        assertThat(offenders).as(() -> message(offenders)).isEmpty();
    }

    @Test
    void aStatementBuiltFromABareTableNameIsSeen() {
        String source = """
                class Sweeper {
                    private static final String TABLE = "onebeat_task";
                    void sweep() { jdbc.update("DELETE FROM " + TABLE + " WHERE published_at IS NOT NULL"); }
                }
                """;

        assertThat(outsideOwner("operate.Sweeper", source, tables())).containsExactly("onebeat_task");
        assertThat(outsideOwner("engine.outbox.TaskTable", source, tables())).as("in its owner").isEmpty();
        assertThat(outsideOwner("operate.retention.Purge", source, tables())).as("declared as a name only").isEmpty();
        assertThat(outsideOwner("operate.Sweeper", "class Sweeper { String t = \"SELECT 1 FROM onebeat_fire\"; }",
                tables())).as("a statement naming it").containsExactly("onebeat_fire");
    }

    /** @return the tables whose statements (or bare names) the source of class {@code owner} holds, not being theirs */
    private static Set<String> outsideOwner(String owner, String source, Set<String> tables) {
        Set<String> offended = new TreeSet<>();
        for (String literal : StringLiterals.of(source)) {
            Set<String> named = SQL.matcher(literal).find() ? named(literal, tables) : bareName(literal, tables, owner);
            named.stream().filter(table -> !allowed(table, owner)).forEach(offended::add);
        }
        return offended;
    }

    @Test
    void everyTableOfTheChangelogsHasADeclaredOwner() {
        assertThat(OWNERS.keySet()).as("tables of the changelogs (%s) and the Quartz tables onebeat queries need an "
                + "owner declared here", CHANGELOGS).containsAll(tables());
    }

    @Test
    void declaredOwnersExist() {
        Stream.of(OWNERS.values().stream().flatMap(List::stream), READS_ACROSS.keySet().stream(),
                        NAMES_ONLY.keySet().stream()).flatMap(owners -> owners)
                .forEach(owner -> assertThat(MAIN.resolve((APP + owner).replace('.', '/') + ".java"))
                        .as("declared owner %s", owner).exists());
    }

    private static boolean allowed(String table, String owner) {
        List<String> owners = OWNERS.get(table);
        return owners != null && owners.contains(owner)
                || READS_ACROSS.getOrDefault(owner, Set.of()).contains(table);
    }

    private static String message(Map<String, Set<String>> offenders) {
        StringBuilder text = new StringBuilder("SQL on a table outside its owner. Each table has one owner, so that "
                + "every statement on it is read in one place and its locks and indexes are reasoned about in one "
                + "class; call the owner's methods (add one there if it lacks it) instead of writing SQL on its table:");
        offenders.forEach((table, files) -> text.append("\n  ").append(table).append(": owner ")
                .append(OWNERS.containsKey(table) ? String.join(", ", OWNERS.get(table)) : "none declared (declare one "
                        + "in TableOwnersTest.OWNERS)")
                .append("; found in ").append(String.join(", ", files)));
        return text.toString();
    }

    /** @return the table a literal is the bare name of, unless its class is declared to use names only as names */
    private static Set<String> bareName(String literal, Set<String> tables, String owner) {
        String name = literal.strip().toLowerCase(java.util.Locale.ROOT);
        boolean table = tables.contains(name) || name.startsWith("qrtz_") && QUARTZ.matcher(name).matches();
        return table && !NAMES_ONLY.containsKey(owner) ? Set.of(name) : Set.of();
    }

    /** @return the tables a literal names: those of the changelogs, and any Quartz table */
    private static Set<String> named(String literal, Set<String> tables) {
        Set<String> named = new TreeSet<>();
        for (String table : tables) {
            if (Pattern.compile("(?i)\\b" + table + "\\b").matcher(literal).find()) {
                named.add(table);
            }
        }
        Matcher quartz = QUARTZ.matcher(literal);
        while (quartz.find()) {
            named.add(quartz.group().toLowerCase(java.util.Locale.ROOT));
        }
        return named;
    }

    private static Set<String> tables() {
        Set<String> tables = new TreeSet<>(QUARTZ_TABLES);
        try (Stream<Path> files = Files.walk(CHANGELOGS)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".sql")).toList()) {
                Matcher create = CREATE_TABLE.matcher(read(file));
                while (create.find()) {
                    tables.add(create.group(1).toLowerCase(java.util.Locale.ROOT));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(tables).as("tables read from %s", CHANGELOGS.toAbsolutePath()).contains("onebeat_task", "shedlock");
        return tables;
    }

    private static List<Path> javaFiles() {
        try (Stream<Path> files = Files.walk(MAIN)) {
            return files.filter(path -> path.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String className(Path file) {
        String name = MAIN.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".");
        name = name.substring(0, name.length() - ".java".length());
        return name.startsWith(APP) ? name.substring(APP.length()) : name;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The string literals of Java source, text blocks included; comments and character literals skipped. */
    static final class StringLiterals {

        private StringLiterals() {
        }

        static List<String> of(String source) {
            List<String> literals = new ArrayList<>();
            int i = 0;
            int n = source.length();
            while (i < n) {
                char c = source.charAt(i);
                if (source.startsWith("//", i)) {
                    i = end(source, source.indexOf('\n', i));
                } else if (source.startsWith("/*", i)) {
                    i = end(source, source.indexOf("*/", i + 2)) + 2;
                } else if (source.startsWith("\"\"\"", i)) {
                    int close = source.indexOf("\"\"\"", i + 3);
                    while (close > 0 && source.charAt(close - 1) == '\\') {
                        close = source.indexOf("\"\"\"", close + 1);
                    }
                    close = end(source, close);
                    literals.add(source.substring(i + 3, close));
                    i = close + 3;
                } else if (c == '"' || c == '\'') {
                    int j = i + 1;
                    while (j < n && source.charAt(j) != c && source.charAt(j) != '\n') {
                        j += source.charAt(j) == '\\' ? 2 : 1;
                    }
                    if (c == '"') {
                        literals.add(source.substring(i + 1, Math.min(j, n)));
                    }
                    i = j + 1;
                } else {
                    i++;
                }
            }
            return literals;
        }

        private static int end(String source, int index) {
            return index < 0 ? source.length() : index;
        }
    }
}
