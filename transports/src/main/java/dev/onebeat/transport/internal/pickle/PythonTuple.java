package dev.onebeat.transport.internal.pickle;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A value that must reach Python as a {@code tuple}, not a {@code list}: RQ and arq unpack their
 * job payloads by position and keep positional arguments as tuples.
 *
 * @param items the elements, in order; may contain {@code null}
 */
public record PythonTuple(List<?> items) {

    /** Copies the items, keeping {@code null} elements (they are Python {@code None}). */
    public PythonTuple {
        Objects.requireNonNull(items, "items must not be null");
        items = Collections.unmodifiableList(new ArrayList<>(items));
    }

    /**
     * @param items the elements, in order
     * @return a tuple of them
     */
    public static PythonTuple of(Object... items) {
        return new PythonTuple(Arrays.asList(items));
    }
}
