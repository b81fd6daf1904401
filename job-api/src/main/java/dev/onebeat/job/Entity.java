package dev.onebeat.job;

import java.util.Objects;

/**
 * The business entity a task is about, such as {@code order:42}. It is part of the task's
 * idempotency key: one fire may dispatch the same task once per entity.
 *
 * <p>Both are stored whole beside the task and sent to transports that carry them (the JSON of HTTP and
 * Kafka, Kafka's record key); its idempotency key holds them hashed when they are long.
 *
 * @param type the kind of entity, such as {@code order}; not blank, at most {@value #MAX_TYPE_LENGTH} characters
 * @param id the entity's identifier within its type; not blank, at most {@value #MAX_ID_LENGTH} characters
 */
public record Entity(String type, String id) {

    /** Longest entity type, in characters. */
    public static final int MAX_TYPE_LENGTH = 255;
    /** Longest entity id, in characters: room for a URL or a composite id, not for a document. */
    public static final int MAX_ID_LENGTH = 4096;

    /** Rejects a blank type or id, one that is too long, and a NUL character, which PostgreSQL cannot store. */
    public Entity {
        if (type == null || type.isBlank()) {
            throw new IllegalArgumentException("entity.type must not be blank, was '" + type + "'");
        }
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("entity.id must not be blank, was '" + id + "'");
        }
        if (type.length() > MAX_TYPE_LENGTH) {
            throw new IllegalArgumentException("entity.type must have at most " + MAX_TYPE_LENGTH + " characters, had "
                    + type.length() + " ('" + type.substring(0, 40) + "…')");
        }
        if (id.length() > MAX_ID_LENGTH) {
            throw new IllegalArgumentException("entity.id must have at most " + MAX_ID_LENGTH + " characters, had "
                    + id.length() + " ('" + id.substring(0, 40) + "…'); use a shorter identifier, such as a hash of it");
        }
        if (type.indexOf('\u0000') >= 0 || id.indexOf('\u0000') >= 0) {
            throw new IllegalArgumentException((type.indexOf('\u0000') >= 0 ? "entity.type" : "entity.id")
                    + " must not hold a NUL character (\\u0000), which PostgreSQL cannot store");
        }
    }

    /**
     * @param type the kind of entity
     * @param id its identifier, turned into text with {@code String.valueOf}
     * @return the entity
     */
    public static Entity of(String type, Object id) {
        return new Entity(type, String.valueOf(Objects.requireNonNull(id, "entity.id must not be null")));
    }

    /** @return {@code type:id} */
    @Override
    public String toString() {
        return type + ":" + id;
    }
}
