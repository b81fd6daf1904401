package dev.onebeat.job;

import java.util.Objects;

/**
 * The business entity a task is about, such as {@code order:42}. It is part of the task's
 * idempotency key: one fire may dispatch the same task once per entity.
 *
 * @param type the kind of entity, such as {@code order}; not blank
 * @param id the entity's identifier within its type; not blank
 */
public record Entity(String type, String id) {

    /** Rejects a blank type or id. */
    public Entity {
        if (type == null || type.isBlank()) {
            throw new IllegalArgumentException("entity.type must not be blank, was '" + type + "'");
        }
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("entity.id must not be blank, was '" + id + "'");
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
