package dev.onebeat.scheduler.engine.registry;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Gives a declarative job's arguments from configuration the types they were written with. YAML
 * keeps numbers, booleans and null, but environment variables and command-line properties reach the
 * binder as text: {@code ONEBEAT_JOBS_0_ARGS_0=2} would otherwise send the string {@code "2"} and a
 * Python task {@code add(x, y)} would get {@code "23"} or fail. So a text that reads as a JSON number,
 * {@code true}, {@code false}, {@code null}, list, object or quoted string is that value, whichever
 * source it came from. A string that looks like a number is written as a JSON string, quotes included:
 * {@code ONEBEAT_JOBS_0_ARGS_0='"2"'}, or in YAML {@code args: ['"2"']}. Arguments from the admin API are
 * JSON already and are left as they are.
 */
final class ConfiguredArguments {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    // JSON's number grammar, so that "007", "1e", "0x10" or "+1" stay text
    private static final Pattern NUMBER = Pattern.compile("-?(0|[1-9]\\d*)(\\.\\d+)?([eE][+-]?\\d+)?");

    private ConfiguredArguments() {
    }

    /** @return the list with each text element read as the JSON value it spells, recursively */
    static List<Object> typed(List<Object> args) {
        if (args == null) {
            return null;
        }
        List<Object> typed = new ArrayList<>(args.size());
        args.forEach(arg -> typed.add(typed(arg)));
        return typed;
    }

    /** @return the map with each text value read as the JSON value it spells, recursively */
    static Map<String, Object> typed(Map<String, Object> kwargs) {
        if (kwargs == null) {
            return null;
        }
        Map<String, Object> typed = new LinkedHashMap<>();
        kwargs.forEach((name, value) -> typed.put(name, typed(value)));
        return typed;
    }

    @SuppressWarnings("unchecked")
    private static Object typed(Object value) {
        if (value instanceof String text) {
            return fromText(text);
        }
        if (value instanceof List<?> list) {
            return typed((List<Object>) list);
        }
        if (value instanceof Map<?, ?> map) {
            return typed((Map<String, Object>) map);
        }
        return value;
    }

    private static Object fromText(String text) {
        String trimmed = text.strip();
        switch (trimmed) {
            case "true":
                return Boolean.TRUE;
            case "false":
                return Boolean.FALSE;
            case "null":
                return null;
            default:
                break;
        }
        boolean structured = (trimmed.startsWith("[") && trimmed.endsWith("]"))
                || (trimmed.startsWith("{") && trimmed.endsWith("}"))
                || (trimmed.length() >= 2 && trimmed.startsWith("\"") && trimmed.endsWith("\""));
        if (!structured && !NUMBER.matcher(trimmed).matches()) {
            return text;
        }
        try {
            return JSON.readValue(trimmed, Object.class);
        } catch (JacksonException e) {
            // brackets or quotes that are not JSON, such as "[draft]": the text was meant
            return text;
        }
    }
}
