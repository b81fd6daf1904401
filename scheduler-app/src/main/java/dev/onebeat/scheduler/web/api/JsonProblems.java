package dev.onebeat.scheduler.web.api;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * Jackson's reading errors in the words of the API: the JSON path of the field at fault first
 * ({@code args: expected a list, got "notalist"}), then what is wrong; never Java class names.
 */
final class JsonProblems {

    private static final int MAX_SHOWN = 60;
    private static final Map<JsonToken, String> TOKENS = Map.of(
            JsonToken.START_OBJECT, "an object", JsonToken.START_ARRAY, "a list",
            JsonToken.VALUE_STRING, "a string", JsonToken.VALUE_NUMBER_INT, "a number",
            JsonToken.VALUE_NUMBER_FLOAT, "a number", JsonToken.VALUE_TRUE, "true",
            JsonToken.VALUE_FALSE, "false", JsonToken.VALUE_NULL, "null");

    private JsonProblems() {
    }

    /**
     * @param e what Jackson threw while reading a request body
     * @param body the body as a tree when it was read as one, to quote the offending value; else null
     */
    static String describe(JacksonException e, JsonNode body) {
        if (e instanceof StreamReadException) {
            return "request body is not valid JSON: " + e.getOriginalMessage() + at(e.getLocation());
        }
        String path = path(e.getPath());
        if (e instanceof UnrecognizedPropertyException unknown) {
            return path + ": is not a field; known fields are " + known(unknown.getKnownPropertyIds());
        }
        if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
            return path + ": expected " + expected(mismatch.getTargetType()) + got(mismatch, body);
        }
        return path + ": " + e.getOriginalMessage();
    }

    private static String path(List<JacksonException.Reference> references) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference reference : references) {
            if (reference.getPropertyName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.isEmpty() ? "request body" : path.toString();
    }

    private static String expected(Class<?> type) {
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "a list";
        }
        if (CharSequence.class.isAssignableFrom(type)) {
            return "a string";
        }
        if (Number.class.isAssignableFrom(type) || type.isPrimitive() && type != boolean.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        return "an object";
    }

    private static String got(MismatchedInputException e, JsonNode body) {
        JsonNode value = body == null ? null : at(body, e.getPath());
        if (value != null && value.isValueNode()) {
            String shown = value.toString();
            return ", got " + (shown.length() > MAX_SHOWN ? shown.substring(0, MAX_SHOWN) + "..." : shown);
        }
        JsonToken token = value != null ? value.asToken() : e.getCurrentToken();
        return token == null ? "" : ", got " + TOKENS.getOrDefault(token, "a value");
    }

    private static JsonNode at(JsonNode body, List<JacksonException.Reference> references) {
        JsonNode node = body;
        for (JacksonException.Reference reference : references) {
            if (node == null) {
                return null;
            }
            node = reference.getPropertyName() != null ? node.get(reference.getPropertyName())
                    : node.get(reference.getIndex());
        }
        return node;
    }

    private static String known(Collection<Object> ids) {
        return ids == null ? "[]" : ids.stream().map(String::valueOf).sorted().toList().toString();
    }

    private static String at(TokenStreamLocation location) {
        return location == null || location.getLineNr() < 0 ? ""
                : " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    }
}
