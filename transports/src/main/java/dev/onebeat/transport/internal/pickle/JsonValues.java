package dev.onebeat.transport.internal.pickle;

import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the stored args and kwargs JSON of a task into the plain values {@link PickleWriter} and the
 * Python formats accept: objects keep their key order, integers stay exact and decimals are doubles,
 * as Python's {@code json.loads} would read them.
 */
public final class JsonValues {

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .build();

    private JsonValues() {
    }

    /**
     * @param argsJson a JSON array, or {@code null} for none
     * @return its elements
     * @throws IllegalArgumentException if the text is not a JSON array
     */
    public static List<Object> args(String argsJson) {
        if (argsJson == null || argsJson.isBlank()) {
            return List.of();
        }
        try {
            return JSON.readValue(argsJson, new TypeReference<List<Object>>() { });
        } catch (JacksonException e) {
            throw new IllegalArgumentException("args must be a JSON array, was: " + argsJson, e);
        }
    }

    /**
     * @param kwargsJson a JSON object, or {@code null} for none
     * @return its members, in document order
     * @throws IllegalArgumentException if the text is not a JSON object
     */
    public static Map<String, Object> kwargs(String kwargsJson) {
        if (kwargsJson == null || kwargsJson.isBlank()) {
            return Map.of();
        }
        try {
            return JSON.readValue(kwargsJson, new TypeReference<Map<String, Object>>() { });
        } catch (JacksonException e) {
            throw new IllegalArgumentException("kwargs must be a JSON object, was: " + kwargsJson, e);
        }
    }
}
