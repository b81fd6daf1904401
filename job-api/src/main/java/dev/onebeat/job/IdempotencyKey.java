package dev.onebeat.job;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Objects;
import java.util.UUID;

/**
 * The idempotency key of a dispatched task, derived only from business meaning:
 * {@code job/scheduled-instant/task[/entity-type:entity-id]}, for example
 * {@code invoice-reminders/2026-11-29T08:00:00Z/send_reminder/order:42}; a run outside the schedule
 * carries its id after the instant ({@link #of(String, Instant, String, String, Entity)}).
 *
 * <p>The same inputs give the same key in any JVM, on any replica, in any run. The key is ASCII and
 * at most {@value #MAX_LENGTH} characters, so it fits an AMQP {@code message_id} or an HTTP header:
 * {@code %}, {@code /}, {@code ~}, {@code :} (in an entity type), blanks, control and non-ASCII
 * characters are percent-encoded (UTF-8), and a part longer than {@value #MAX_PART_LENGTH}
 * characters after encoding is cut to a prefix followed by {@code ~} and 20 hex digits of its
 * SHA-256. Distinct inputs give distinct keys (up to that hash).
 *
 * @param value the key text
 */
public record IdempotencyKey(String value) {

    /** Longest key; no key is longer. */
    public static final int MAX_LENGTH = 255;
    /** Longest part (job, task, entity) after encoding; longer ones are hashed. */
    public static final int MAX_PART_LENGTH = 64;
    /** Longest run id after encoding, so that a key with one stays within {@link #MAX_LENGTH}; longer ones are hashed. */
    public static final int MAX_RUN_LENGTH = 24;

    /** Namespace of the name-based UUIDs of {@link #toUuid()}; fixed forever. */
    public static final UUID NAMESPACE = UUID.fromString("0a6e5be7-1f1d-4c8b-9d2e-6f6e65626561");

    private static final int HASH_HEX_DIGITS = 20;
    private static final HexFormat HEX = HexFormat.of();

    /** Checks the key's length; use {@link #of} to derive one. */
    public IdempotencyKey {
        Objects.requireNonNull(value, "value must not be null");
        if (value.isEmpty() || value.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("key must have 1 to " + MAX_LENGTH + " characters, had " + value.length());
        }
    }

    /**
     * Derives the key of a task.
     *
     * @param job the job name
     * @param scheduledAt the fire's logical scheduled instant; written in UTC, ISO-8601
     * @param task the task name
     * @param entity the business entity, or {@code null}
     * @return the key
     */
    public static IdempotencyKey of(String job, Instant scheduledAt, String task, Entity entity) {
        return of(job, scheduledAt, null, task, entity);
    }

    /**
     * Derives the key of a task of a run outside the schedule (a "trigger now" request): the run's id
     * follows the instant, after a {@code ~} ({@code nightly/2026-11-29T08:00:00.123Z~r42/report}), so the
     * keys of two runs, or of a run and the scheduled fire of the same instant, never meet.
     *
     * @param run the run's id (the request id), or {@code null} for a fire of the schedule
     * @return the key
     */
    public static IdempotencyKey of(String job, Instant scheduledAt, String run, String task, Entity entity) {
        Objects.requireNonNull(scheduledAt, "scheduledAt must not be null");
        StringBuilder key = new StringBuilder(128)
                .append(part(Objects.requireNonNull(job, "job must not be null"), false)).append('/')
                .append(DateTimeFormatter.ISO_INSTANT.format(scheduledAt));
        if (run != null) {
            key.append('~').append(bounded(encode(run, false), MAX_RUN_LENGTH));
        }
        key.append('/').append(part(Objects.requireNonNull(task, "task must not be null"), false));
        if (entity != null) {
            key.append('/').append(bounded(encode(entity.type(), true) + ":" + encode(entity.id(), false)));
        }
        return new IdempotencyKey(key.toString());
    }

    /**
     * The key as a name-based (version 5, SHA-1) UUID in the {@link #NAMESPACE} namespace, for
     * systems that want UUID ids, such as Celery task ids.
     *
     * @return the same UUID for the same key, everywhere
     */
    public UUID toUuid() {
        return uuidV5(NAMESPACE, value);
    }

    static UUID uuidV5(UUID namespace, String name) {
        byte[] hash;
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            sha1.update(ByteBuffer.allocate(16)
                    .putLong(namespace.getMostSignificantBits())
                    .putLong(namespace.getLeastSignificantBits())
                    .array());
            hash = sha1.digest(name.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every JVM", e);
        }
        hash[6] = (byte) ((hash[6] & 0x0f) | 0x50);
        hash[8] = (byte) ((hash[8] & 0x3f) | 0x80);
        ByteBuffer bytes = ByteBuffer.wrap(hash, 0, 16);
        return new UUID(bytes.getLong(), bytes.getLong());
    }

    private static String part(String raw, boolean encodeColon) {
        return bounded(encode(raw, encodeColon));
    }

    private static String bounded(String encoded) {
        return bounded(encoded, MAX_PART_LENGTH);
    }

    private static String bounded(String encoded, int max) {
        if (encoded.length() <= max) {
            return encoded;
        }
        int prefix = max - HASH_HEX_DIGITS - 1;
        // never cut a %XX escape in half
        if (encoded.charAt(prefix - 1) == '%') {
            prefix -= 1;
        } else if (encoded.charAt(prefix - 2) == '%') {
            prefix -= 2;
        }
        return encoded.substring(0, prefix) + "~" + sha256Hex(encoded).substring(0, HASH_HEX_DIGITS);
    }

    private static String encode(String raw, boolean encodeColon) {
        StringBuilder out = null;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            boolean plain = c > 0x20 && c < 0x7f && c != '%' && c != '/' && c != '~' && !(encodeColon && c == ':');
            if (plain) {
                if (out != null) {
                    out.append(c);
                }
                continue;
            }
            if (out == null) {
                out = new StringBuilder(raw.length() + 16).append(raw, 0, i);
            }
            int codePoint = raw.codePointAt(i);
            if (Character.isSurrogate((char) codePoint)) {
                // an unpaired surrogate has no UTF-8 form; encode the code unit itself so it stays distinct
                appendEscaped(out, (byte) (0xE0 | (c >> 12)));
                appendEscaped(out, (byte) (0x80 | ((c >> 6) & 0x3F)));
                appendEscaped(out, (byte) (0x80 | (c & 0x3F)));
                continue;
            }
            for (byte b : new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8)) {
                appendEscaped(out, b);
            }
            i += Character.charCount(codePoint) - 1;
        }
        return out == null ? raw : out.toString();
    }

    private static void appendEscaped(StringBuilder out, byte b) {
        out.append('%').append(HEX.toHexDigits(b).toUpperCase());
    }

    private static String sha256Hex(String text) {
        try {
            return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    /** @return the key text */
    @Override
    public String toString() {
        return value;
    }
}
