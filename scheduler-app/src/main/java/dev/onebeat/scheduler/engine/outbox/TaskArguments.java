package dev.onebeat.scheduler.engine.outbox;

import dev.onebeat.job.DeliveryOptions;
import dev.onebeat.transport.TaskPayload;
import dev.onebeat.transport.TraceContext;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * The bound on a task's arguments ({@code onebeat.fire.max-arguments-size}): every fire writes them to the
 * outbox and every transport sends them, so a job with 20 MB of keyword arguments would write 20 MB per
 * fire. Declarative jobs are checked when they are defined (a start-up error, a 400), tasks dispatched by
 * code when they are dispatched (the fire fails, naming the task).
 */
public final class TaskArguments {

    /** The default bound, 1 MiB. */
    public static final long DEFAULT_MAX_BYTES = 1024 * 1024;
    /** The property that sets the bound. */
    public static final String PROPERTY = "onebeat.fire.max-arguments-size";

    private static final JsonMapper JSON = JsonMapper.builder().build();
    // more than the stored form adds to the arguments of a task without delivery options: {"args":,"kwargs":}
    private static final int STORED_FORM_SLACK = 32;

    private TaskArguments() {
    }

    /**
     * @param args positional arguments, checked to be JSON values already
     * @param kwargs keyword arguments, the same
     * @param maxBytes the bound on both together, as UTF-8 JSON
     * @throws IllegalArgumentException starting with the larger field's name ({@code kwargs: …}), saying both sizes
     */
    public static void requireWithin(List<Object> args, Map<String, Object> kwargs, long maxBytes) {
        long argsBytes = utf8Length(JSON.writeValueAsString(args));
        long kwargsBytes = utf8Length(JSON.writeValueAsString(kwargs));
        if (argsBytes + kwargsBytes > maxBytes) {
            throw new IllegalArgumentException((kwargsBytes > argsBytes ? "kwargs" : "args") + ": args and kwargs take "
                    + size(argsBytes + kwargsBytes) + " as JSON (args " + size(argsBytes) + ", kwargs " + size(kwargsBytes)
                    + "), more than " + PROPERTY + " allows (" + size(maxBytes) + ")");
        }
    }

    /**
     * @param payload a task's payload, measured as the outbox stores it
     * @param task the task's name, for the message
     * @param maxBytes the bound
     * @throws IllegalArgumentException naming the task and both sizes
     */
    static void requireWithin(TaskPayload payload, String task, long maxBytes) {
        // UTF-8 takes 1 to 3 bytes per char (a surrogate pair 4 for 2), so only text near the bound is counted;
        // without delivery options the arguments are all of the stored form but a few characters, so it is only
        // written out here when they come near the bound
        boolean argumentsOnly = payload.expiresFrom() == null && payload.delivery().equals(DeliveryOptions.NONE);
        if (argumentsOnly
                && (payload.argsJson().length() + payload.kwargsJson().length() + STORED_FORM_SLACK) * 3L <= maxBytes) {
            return;
        }
        // the trace a payload carries when tracing is on is onebeat's, not the job's: it does not count
        String payloadJson = (payload.trace().present() ? payload.withTrace(TraceContext.NONE) : payload).toJson();
        if (payloadJson.length() * 3L <= maxBytes) {
            return;
        }
        long bytes = utf8Length(payloadJson);
        if (bytes > maxBytes) {
            throw new IllegalArgumentException("args/kwargs: task '" + task + "' has arguments of " + size(bytes)
                    + " as JSON, more than " + PROPERTY + " allows (" + size(maxBytes) + ")");
        }
    }

    static long utf8Length(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /** @return {@code 20971520 bytes (20.0 MiB)} */
    static String size(long bytes) {
        if (bytes < 1024) {
            return bytes + " bytes";
        }
        double kib = bytes / 1024.0;
        String unit = kib < 1024 ? String.format(Locale.ROOT, "%.1f KiB", kib)
                : String.format(Locale.ROOT, "%.2f MiB", kib / 1024);
        return bytes + " bytes (" + unit + ")";
    }
}
