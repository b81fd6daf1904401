package dev.onebeat.scheduler.engine.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.SharedSchedulerIT;
import dev.onebeat.scheduler.engine.quartz.QuartzTriggers;
import dev.onebeat.scheduler.operate.admin.JobDirectory;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The catalog's pages and searches on real PostgreSQL: a search matches its text literally and in any case, wildcards
 * included; pages and counts agree; a lookup by name finds one job; and a search is served by the trigram index.
 */
@SharedSchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED})
class JobListingIT {

    /** unique per run: the context and its database are shared with other classes */
    private final String prefix = "listing-" + UUID.randomUUID().toString().substring(0, 8);

    @Autowired
    JobListing listing;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    TransactionTemplate transactions;

    @Autowired
    Scheduler scheduler;

    @Autowired
    JobDirectory directory;

    @BeforeEach
    void jobs() {
        List<String> names = List.of("Alpha_One", "alpha%two", "alphaXthree", "beta\\four", "BETA-five", "gamma-six");
        for (String name : names) {
            insert(prefix + "-" + name, name.startsWith("gamma") ? "team-g" : "default");
        }
    }

    @AfterEach
    void removeJobs() {
        jdbc.sql("DELETE FROM onebeat_job WHERE name LIKE ?").param(prefix + "%").update();
    }

    @ParameterizedTest(name = "few matches: {0}")
    @ValueSource(booleans = {false, true})
    void searchMatchesItsTextLiterallyInAnyCase(boolean fewMatches) {
        assertThat(names(search("alpha_", fewMatches))).containsExactly(prefix + "-Alpha_One");
        assertThat(names(search("ALPHA%", fewMatches))).containsExactly(prefix + "-alpha%two");
        assertThat(names(search("a\\f", fewMatches))).containsExactly(prefix + "-beta\\four");
        assertThat(names(search("beta", fewMatches))).containsExactlyInAnyOrder(prefix + "-BETA-five",
                prefix + "-beta\\four");
        assertThat(listing.count(prefix.toLowerCase() + "-alpha", null, 100)).isEqualTo(3);
        assertThat(listing.count(prefix.toLowerCase() + "-alpha_", null, 100)).isEqualTo(1);
    }

    @ParameterizedTest(name = "few matches: {0}")
    @ValueSource(booleans = {false, true})
    void pagesCutOneOrderAndTheCountAgrees(boolean fewMatches) {
        String search = prefix.toLowerCase();
        List<String> all = names(page(search, null, fewMatches, 100, 0));
        assertThat(all).hasSize(6).doesNotHaveDuplicates().isSorted();
        assertThat(listing.count(search, null, 100)).isEqualTo(6);
        assertThat(listing.count(search, null, 4)).as("counting stops at its limit").isEqualTo(4);
        assertThat(names(page(search, null, fewMatches, 2, 2))).isEqualTo(all.subList(2, 4));
        assertThat(page(search, null, fewMatches, 2, 6)).isEmpty();
        assertThat(names(page(search, List.of("team-g"), fewMatches, 10, 0))).containsExactly(prefix + "-gamma-six");
    }

    @Test
    void aPageOfAVastCatalogCountsUpToTheCapAndSaysMoreFollow() {
        jdbc.sql("""
                INSERT INTO onebeat_job (name, schedule_key, schedule, member_since)
                SELECT ? || '-many-' || lpad(i::text, 6, '0'), 'many', 'every 1h', now()
                FROM generate_series(1, ?) i""").params(prefix, JobDirectory.COUNT_CAP + 1).update();
        String search = prefix + "-many-";

        JobDirectory.JobPage first = directory.search(search, null, 0, 50);
        assertThat(first.items()).hasSize(50);
        assertThat(first.total()).isEqualTo(JobDirectory.COUNT_CAP);
        assertThat(first.totalCapped()).isTrue();
        assertThat(first.hasMore()).isTrue();

        JobDirectory.JobPage last = directory.search(search, null, JobDirectory.COUNT_CAP / 50, 50);
        assertThat(last.items()).singleElement().satisfies(job -> assertThat(job.name()).endsWith("-many-010001"));
        assertThat(last.hasMore()).isFalse();

        JobDirectory.JobPage few = directory.search(prefix + "-alpha", null, 0, 2);
        assertThat(few.total()).isEqualTo(3);
        assertThat(few.totalCapped()).isFalse();
        assertThat(few.items()).hasSize(2);
        assertThat(few.hasMore()).isTrue();
    }

    @Test
    void lookupByNameAndNamespaceFilter() {
        String gamma = prefix + "-gamma-six";
        assertThat(listing.page(scheduler(), QuartzTriggers.SCHEDULE_GROUP, "", gamma, null, false, 1, 0))
                .singleElement().satisfies(row -> {
                    assertThat(row.name()).isEqualTo(gamma);
                    assertThat(row.namespace()).isEqualTo("team-g");
                    assertThat(row.schedule()).isEqualTo("every 1h");
                });
        String search = prefix.toLowerCase();
        assertThat(names(page(search, List.of("team-g"), false, 10, 0))).containsExactly(gamma);
        assertThat(listing.count(search, List.of("team-g", "nowhere"), 100)).isEqualTo(1);
        assertThat(listing.count(search, List.of(), 100)).isZero();
    }

    @Test
    void searchIsServedByTheTrigramIndex() {
        assertThat(jdbc.sql("SELECT indexdef FROM pg_indexes WHERE indexname = 'onebeat_job_name_trgm_idx'")
                .query(String.class).single()).contains("gin", "lower", "gin_trgm_ops");
        String plan = transactions.execute(status -> {
            // a catalog of some thousand jobs, analyzed, all rolled back: a search for a rare text goes by the index.
            // 5,000: the insert, each row into the index's tree, stays well within the pool's 5 s socketTimeout on a
            // slow machine (20,000 took over 5 s on one, and the driver cut the connection)
            // if the statement's condition is one the index serves
            // into the index's tree, not its pending list, whose scan the planner would count as well
            jdbc.sql("SET LOCAL gin_pending_list_limit = 64").update();
            jdbc.sql("""
                    INSERT INTO onebeat_job (name, schedule_key, schedule, member_since)
                    SELECT ? || '-' || md5(i::text), 'filler', 'every 1h', now() FROM generate_series(1, 5000) i""")
                    .param(prefix).update();
            jdbc.sql("ANALYZE onebeat_job").update();
            // still a scan costs less below some hundred thousand rows: the planner is told not to scan
            jdbc.sql("SET LOCAL enable_seqscan = off").update();
            status.setRollbackOnly();
            String search = "gamma-six";
            return String.join("\n", jdbc.sql("EXPLAIN " + JobListing.countStatement(search, null))
                    .param("pattern", "%" + JobListing.likeEscaped(search) + "%").param("limit", 101)
                    .query(String.class).list());
        });
        assertThat(plan).contains("onebeat_job_name_trgm_idx");
    }

    @Test
    void aSearchOfFewMatchesAmongClusteredNamesReadsItsMatchesByTheTrigramIndexDespiteItsLimit() {
        Map<Boolean, String> plans = transactions.execute(status -> {
            // names that share a prefix sit together in the name order: 20,000 fillers before 2,000 matches, analyzed,
            // all rolled back; the planner, expecting matches spread evenly, would walk the names in order from the
            // first until 51 match
            jdbc.sql("SET LOCAL gin_pending_list_limit = 64").update();
            jdbc.sql("""
                    INSERT INTO onebeat_job (name, schedule_key, schedule, member_since)
                    SELECT ? || '-a-filler-' || lpad(i::text, 6, '0'), 'filler', 'every 1h', now()
                    FROM generate_series(1, 20000) i
                    UNION ALL
                    SELECT ? || '-z-rare-' || lpad(i::text, 6, '0'), 'filler', 'every 1h', now()
                    FROM generate_series(1, 2000) i""").params(prefix, prefix).update();
            jdbc.sql("ANALYZE onebeat_job").update();
            // below some hundred thousand rows a scan costs less than the index: the planner is told not to scan
            jdbc.sql("SET LOCAL enable_seqscan = off").update();
            status.setRollbackOnly();
            String search = "-z-rare-";
            Map<Boolean, String> plan = new HashMap<>();
            for (boolean matchesFirst : List.of(true, false)) {
                plan.put(matchesFirst, String.join("\n", jdbc.sql("EXPLAIN " + JobListing.pageStatement(search, null,
                                null, matchesFirst))
                        .param("pattern", "%" + JobListing.likeEscaped(search) + "%").param("scheduler", scheduler())
                        .param("group", QuartzTriggers.SCHEDULE_GROUP).param("limit", 51).param("offset", 0)
                        .query(String.class).list()));
            }
            return plan;
        });
        assertThat(plans.get(true)).as("matches first").contains("onebeat_job_name_trgm_idx");
        // why: the same page walks the names in order, 22,000 of them before the 2,000 matches
        assertThat(plans.get(false)).as("names in order").contains("onebeat_job_pkey")
                .doesNotContain("onebeat_job_name_trgm_idx");
    }

    /** @return this class's jobs among those whose name contains {@code text}, searched in lower case as the API does */
    private List<JobListing.Row> search(String text, boolean fewMatches) {
        return page(text.toLowerCase(), null, fewMatches, 1000, 0).stream()
                .filter(row -> row.name().startsWith(prefix)).toList();
    }

    private List<JobListing.Row> page(String search, List<String> namespaces, boolean fewMatches, int limit,
                                      long offset) {
        return listing.page(scheduler(), QuartzTriggers.SCHEDULE_GROUP, search, null, namespaces, fewMatches, limit,
                offset);
    }

    private static List<String> names(List<JobListing.Row> rows) {
        return rows.stream().map(JobListing.Row::name).toList();
    }

    private String scheduler() {
        try {
            return scheduler.getSchedulerName();
        } catch (SchedulerException e) {
            throw new IllegalStateException(e);
        }
    }

    private void insert(String name, String namespace) {
        jdbc.sql("""
                        INSERT INTO onebeat_job (name, schedule_key, schedule, member_since, namespace)
                        VALUES (?, ?, 'every 1h', now(), ?)""")
                .params(name, "listing-" + Math.abs(name.hashCode()), namespace).update();
    }
}
