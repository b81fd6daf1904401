package dev.onebeat.scheduler.registry;

import dev.onebeat.job.PeriodicJob;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Names the schedule a job fires on. Jobs with the same schedule (expression, zone, daylight-saving
 * policy) and misfire policy fire at the same instants in the same way, so they share one Quartz
 * trigger; its name is derived from that description, the same on every replica.
 */
public final class ScheduleKeys {

    private ScheduleKeys() {
    }

    /** @return what the job fires on: {@code cron 0 0 8 ? * MON-FRI Europe/Paris misfire=FIRE_ONCE_NOW} */
    public static String signature(PeriodicJob job) {
        return job.schedule().describe() + " misfire=" + job.misfirePolicy();
    }

    /** @return {@code s} and 24 hex digits of the SHA-256 of the job's {@link #signature} */
    public static String key(PeriodicJob job) {
        return keyOf(signature(job));
    }

    /** @return the key of a {@link #signature} */
    public static String keyOf(String signature) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(signature.getBytes(StandardCharsets.UTF_8));
            return "s" + HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
