package dev.onebeat.scheduler.web.api;

import dev.onebeat.scheduler.engine.calendar.CalendarsProperties;
import dev.onebeat.scheduler.engine.registry.JobDefinitionException;
import dev.onebeat.scheduler.engine.registry.JobsProperties.Definition;
import java.util.Locale;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

/**
 * Reads the job bodies of {@code POST /api/jobs} and {@code PUT /api/jobs/{name}}, and the calendar bodies of
 * {@code PUT /api/calendars/{name}}, strictly. The
 * application's mapper ignores unknown fields (Boot's default); here a misspelt field such as {@code crn}
 * would silently leave the schedule out or unchanged, so it is a 400 naming the field instead. The text
 * fields take JSON strings only: {@code "lockAtMostFor": 5} would otherwise become 5 milliseconds.
 */
@Component
class JobBodies {

    private final JsonMapper strict;

    JobBodies(JsonMapper json) {
        this.strict = json.rebuild()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .withCoercionConfig(LogicalType.Textual, strings -> strings
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
                .build();
    }

    /** @throws JobDefinitionException naming the field at fault, or the body if it is not a JSON object */
    Definition definition(JsonNode body) {
        return read(body, Definition.class, "a job");
    }

    /** @throws JobDefinitionException naming the field at fault, or the body if it is not a JSON object */
    CalendarsProperties.Definition calendar(JsonNode body) {
        return read(body, CalendarsProperties.Definition.class, "a calendar");
    }

    private <T> T read(JsonNode body, Class<T> type, String what) {
        if (body == null || !body.isObject()) {
            String got = body == null || body.isMissingNode() ? "nothing"
                    : body.getNodeType().name().toLowerCase(Locale.ROOT);
            throw new JobDefinitionException("request body: expected a JSON object with the fields of " + what
                    + ", got " + got);
        }
        try {
            return strict.readerFor(type).readValue(body);
        } catch (JacksonException e) {
            throw new JobDefinitionException(JsonProblems.describe(e, body), e);
        }
    }
}
