package dev.onebeat.scheduler.engine.outbox;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The bound on a task's arguments ({@value TaskArguments#PROPERTY}), kept beside {@link TaskArguments} that
 * applies it: the fire checks each dispatched task against it and the registry each declarative job, and neither
 * depends on the other. It keeps the name users know, under {@code onebeat.fire}, whose other settings the fire
 * path binds itself.
 *
 * @param maxArgumentsSize the most a task's args and kwargs may take as JSON: a declarative job over it is refused
 *     when it is defined, a task dispatched by code over it fails its fire
 */
@Validated
@ConfigurationProperties("onebeat.fire")
public record TaskArgumentsProperties(@DefaultValue("1MB") @NotNull DataSize maxArgumentsSize) {

    /** The default bound, for code that builds the registry or the fire path by hand. */
    public static final TaskArgumentsProperties DEFAULTS =
            new TaskArgumentsProperties(DataSize.ofBytes(TaskArguments.DEFAULT_MAX_BYTES));

    /** Refuses a bound below 1 KiB, which no real task's arguments would fit. */
    public TaskArgumentsProperties {
        if (maxArgumentsSize != null && maxArgumentsSize.toBytes() < 1024) {
            throw new IllegalArgumentException(TaskArguments.PROPERTY + ": must be at least 1KB, was " + maxArgumentsSize);
        }
    }

    /** @return the bound in bytes */
    public long maxBytes() {
        return maxArgumentsSize.toBytes();
    }
}
