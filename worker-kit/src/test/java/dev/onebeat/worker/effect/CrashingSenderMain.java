package dev.onebeat.worker.effect;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A sender process that delivers one round of effects over HTTP, writes a marker file once the
 * external call returned, and then hangs before it can mark anything sent, waiting to be killed.
 *
 * <p>Arguments: JDBC URL, user, password, marker file, lease in milliseconds.
 */
public final class CrashingSenderMain {

    private CrashingSenderMain() {
    }

    public static void main(String[] args) throws Exception {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setUrl(args[0]);
        dataSource.setUser(args[1]);
        dataSource.setPassword(args[2]);
        Path marker = Path.of(args[3]);
        HttpEffectDelivery http = new HttpEffectDelivery(Duration.ofSeconds(10));
        EffectSender sender = EffectSender.builder(dataSource)
                .senderId("crashing-sender")
                .lease(Duration.ofMillis(Long.parseLong(args[4])))
                .delivery("webhook", effect -> {
                    http.deliver(effect);
                    Files.writeString(marker, effect.idempotencyKey());
                    Thread.sleep(Long.MAX_VALUE);
                })
                .build();
        sender.sendDue();
    }
}
