package dev.onebeat.scheduler.engine.registry;

import dev.onebeat.job.PeriodicJob;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Names the Quartz trigger a job fires from, the same on every replica.
 *
 * <ul>
 *   <li>Jobs defined by data alone (configuration, the admin API) with the same schedule (expression,
 *       zone, daylight-saving policy), misfire policy and spread fire at the same instants in the same way, so
 *       they share one trigger, named {@code s} + a digest of that description, and fire in batches.</li>
 *   <li>A job written in code has a trigger of its own, named {@code j} + a digest of its name and
 *       schedule: it runs user code of unknown length, alone, and its overlap policy says what an instant
 *       that finds its previous fire still running does.</li>
 * </ul>
 */
public final class ScheduleKeys {

    private ScheduleKeys() {
    }

    /**
     * @return what the job fires on: {@code cron 0 0 8 ? * MON-FRI Europe/Paris misfire=FIRE_ONCE_NOW}, and
     *     {@code spread=PT1M} when its schedule's members are spread (a schedule's members share its spread)
     */
    public static String signature(PeriodicJob job) {
        String signature = job.schedule().describe() + " misfire=" + job.misfirePolicy();
        return job.spread().isZero() ? signature : signature + " spread=" + job.spread();
    }

    /** @return the name of the trigger the job fires from: 25 characters, a letter and hex digits */
    public static String key(PeriodicJob job) {
        if (!RegisteredJob.isDeclarative(job)) {
            return digest("j", job.name() + "\n" + signature(job));
        }
        String signature = signature(job);
        return ScheduleMemo.sharedKey(signature, () -> digest("s", signature));
    }

    /** @return whether {@code key} is the trigger of one job written in code ({@link #key}) */
    public static boolean ownTrigger(String key) {
        return key.startsWith("j");
    }

    private static String digest(String prefix, String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return prefix + HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
