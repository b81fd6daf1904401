package dev.onebeat.worker.journal;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.worker.metrics.WorkerMetrics;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A worker process for the crash and race tests. Arguments: jdbcUrl username password mode, then
 * the mode's own:
 * <ul>
 *   <li>{@code race <goFile> <count>}: prints READY, waits for the go file, processes keys
 *       {@code race-0} to {@code race-<count-1>}, prints APPLIED=n and exits;</li>
 *   <li>{@code hang-in-work <key>}: inside the work, after the journal insert and the effect, prints
 *       IN_WORK and blocks, so the transaction never commits;</li>
 *   <li>{@code hang-before-ack <key>}: processes and commits, prints COMMITTED and blocks where it
 *       would acknowledge the message.</li>
 * </ul>
 */
public final class JournalWorkerMain {

    static final String CONSUMER = "procs";

    private JournalWorkerMain() {
    }

    public static void main(String[] args) throws Exception {
        try (HikariDataSource dataSource = new HikariDataSource()) {
            dataSource.setJdbcUrl(args[0]);
            dataSource.setUsername(args[1]);
            dataSource.setPassword(args[2]);
            dataSource.setMaximumPoolSize(2);
            IdempotentConsumer consumer = IdempotentConsumer.of(dataSource, CONSUMER, WorkerMetrics.NOOP);
            switch (args[3]) {
                case "race" -> race(consumer, Path.of(args[4]), Integer.parseInt(args[5]));
                case "hang-in-work" -> consumer.process(args[4], tx -> {
                    Effects.apply(tx, args[4]);
                    say("IN_WORK");
                    hang();
                });
                case "hang-before-ack" -> {
                    consumer.process(args[4], tx -> Effects.apply(tx, args[4]));
                    say("COMMITTED");
                    hang();
                }
                default -> throw new IllegalArgumentException("mode must be race, hang-in-work or hang-before-ack, was " + args[3]);
            }
        }
    }

    private static void race(IdempotentConsumer consumer, Path go, int count) throws InterruptedException {
        consumer.process("warm-up-" + ProcessHandle.current().pid(), tx -> { });
        say("READY");
        while (!Files.exists(go)) {
            Thread.sleep(10);
        }
        int applied = 0;
        for (int i = 0; i < count; i++) {
            String key = "race-" + i;
            applied += consumer.process(key, tx -> Effects.apply(tx, key)) ? 1 : 0;
        }
        say("APPLIED=" + applied);
    }

    private static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    private static void hang() throws InterruptedException {
        Thread.sleep(Long.MAX_VALUE);
    }
}
