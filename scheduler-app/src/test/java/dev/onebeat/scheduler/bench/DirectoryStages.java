package dev.onebeat.scheduler.bench;

import dev.onebeat.scheduler.operate.admin.JobDirectory;
import dev.onebeat.scheduler.engine.registry.JobCatalog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Times the parts of a listing inside the replica, without HTTP: reading every job key from Quartz,
 * the three Quartz reads of one job's view and the view itself, and whole searches. A page costs about its name list plus one view per
 * job shown; whatever a request costs beyond its search is the web layer (security, JSON or the
 * template). The stages run in turn, so that they meet the same load. The last stage runs a search
 * in one transaction, in which Spring's Quartz job store reuses the transaction's connection: what a
 * page would cost with one pool checkout instead of one per Quartz call.
 */
final class DirectoryStages {

    private interface Stage {
        void run(int index) throws Exception;
    }

    private final JobCatalog catalog;
    private final JobDirectory directory;
    private final TransactionTemplate readOnly;
    private final ListedJobs jobs;
    private final int count;

    DirectoryStages(OnebeatInstance instance, ListedJobs jobs, int count) {
        this.catalog = instance.bean(JobCatalog.class);
        this.directory = instance.bean(JobDirectory.class);
        this.readOnly = new TransactionTemplate(instance.bean(PlatformTransactionManager.class));
        this.readOnly.setReadOnly(true);
        this.jobs = jobs;
        this.count = count;
    }

    List<Latencies> measure(int warmups, int rounds) throws Exception {
        Random random = new Random(7);
        Map<String, Stage> stages = new LinkedHashMap<>();
        stages.put("`JobCatalog.names` (every job)", index -> catalog.names());
        stages.put("`JobCatalog.find` of one job", index -> catalog.find(jobs.name(random.nextInt(count))));
        stages.put("one job's view, `JobDirectory.find` (catalog, trigger and ledger in one query)", index ->
                directory.find(jobs.name(random.nextInt(count))));
        stages.put("`JobDirectory.search` first page of 50", index -> directory.search(null, null, 0, 50));
        stages.put("`JobDirectory.search` 1 % query (~100 hits, first 50)", index ->
                directory.search(ListedJobs.onePercentQuery(index), null, 0, 50));
        stages.put("`JobDirectory.search` page 150 of 50", index -> directory.search(null, null, 150, 50));
        stages.put("`JobDirectory.search` first page, in one read-only transaction", index ->
                readOnly.execute(status -> directory.search(null, null, 0, 50)));
        Map<String, List<Long>> times = new LinkedHashMap<>();
        stages.keySet().forEach(label -> times.put(label, new ArrayList<>()));
        for (int round = 0; round < warmups + rounds; round++) {
            for (Map.Entry<String, Stage> stage : stages.entrySet()) {
                long start = System.nanoTime();
                stage.getValue().run(round);
                long elapsed = System.nanoTime() - start;
                if (round >= warmups) {
                    times.get(stage.getKey()).add(elapsed);
                }
            }
        }
        return times.entrySet().stream().map(entry -> new Latencies(entry.getKey(), entry.getValue())).toList();
    }
}
